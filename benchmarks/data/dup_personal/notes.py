# ruff: noqa: E501  (the notes are data)
"""Near-duplicate development set, written for pixelmem (same licence as the repository).

``SAME``: pairs of notes that state the same facts in other words (a near-duplicate each).
``DIFFERENT``: pairs on the same subject with different facts (never a duplicate). ``OTHER``:
notes on other subjects. ``benchmarks/bench_duplicates.py --set personal`` reads this module.
"""

SAME = [
    (
        "Dentist appointment",
        "Dentist on March 3rd at 9 am at the clinic on Elm Street. Bring the insurance card.",
        "Dentist visit",
        "3 March, 9 in the morning, Elm Street clinic; take the insurance card along.",
    ),
    (
        "Flight to Lisbon",
        "Flight TP1351 to Lisbon leaves Heathrow at 07:40 on 12 May, terminal 2, seat 14C.",
        "Lisbon trip",
        "On 12 May I fly to Lisbon with TP1351 from Heathrow T2 at 7.40 am, seat 14C.",
    ),
    (
        "Car service",
        "The car is booked for its annual service at Fenton Motors on Friday at 8:30; they also change the brake pads.",
        "Garage booking",
        "Annual service Friday 8.30 at Fenton Motors, brake pads to be replaced too.",
    ),
    (
        "Wi-Fi password",
        "Guest Wi-Fi is called Maple-Guest and the password is sunflower42.",
        "Guest network",
        "For visitors: network Maple-Guest, password sunflower42.",
    ),
    (
        "Book club",
        "Book club meets at Anna's flat on the last Thursday of the month at 7 pm; this month we read Piranesi.",
        "Reading group",
        "Piranesi this month. We meet at Anna's place, last Thursday, 19:00.",
    ),
    (
        "Landlord contact",
        "Landlord is Mr. Osei, phone 07700 900123; rent of 950 pounds is due on the 1st.",
        "Rent and landlord",
        "Rent 950 pounds due on the first of the month. Mr. Osei, 07700 900123.",
    ),
    (
        "Vet reminder",
        "Biscuit needs his rabies booster on 20 June at Parkside Vets, 10:15.",
        "Biscuit's vaccine",
        "Parkside Vets, June 20, 10.15 am: rabies booster for Biscuit.",
    ),
    (
        "体检预约",
        "六月十八日上午八点在市第一医院体检，前一天晚上十点以后不要吃东西。",
        "体检安排",
        "6月18日早上8点，市一院体检；前一晚22点后禁食。",
    ),
    (
        "房租提醒",
        "每月五号之前给房东转账三千二百元房租，房东姓陈。",
        "交房租",
        "房租3200元，每个月5号前转给陈房东。",
    ),
    (
        "高铁行程",
        "国庆节十月一日坐G7次高铁从上海到北京，上午九点发车，八车厢十二F。",
        "去北京的车票",
        "10月1日G7次，上海开往北京，9:00出发，8车12F座。",
    ),
    (
        "孩子的兴趣班",
        "周六下午两点送女儿去少年宫上钢琴课，学费一学期一千八百元。",
        "钢琴课",
        "女儿的钢琴课在少年宫，每周六14点，一学期学费1800元。",
    ),
]
DIFFERENT = [
    (
        "Dentist appointment 2",
        "Dentist on June 14th at 4 pm at the clinic on Elm Street: a filling on the lower left.",
    ),
    ("Flight to Porto", "Flight TP1947 to Porto leaves Gatwick at 18:05 on 3 August, seat 22A."),
    (
        "Car MOT",
        "The car's MOT is due in November; book it at the council test centre, not Fenton Motors.",
    ),
    (
        "Office Wi-Fi",
        "Office Wi-Fi is Corp-Secure; log in with the company account, no shared password.",
    ),
    (
        "Book club snacks",
        "For book club I bring cheese and crackers; Tom brings wine. Next book not chosen yet.",
    ),
    (
        "Landlord repairs",
        "Asked the landlord to fix the boiler; the plumber comes on Tuesday between 8 and 12.",
    ),
    ("Vet bill", "Paid 86 pounds at Parkside Vets for Biscuit's ear infection drops in April."),
    ("体检结果", "去年体检血脂偏高，医生建议少吃油炸食品，三个月后复查。"),
    ("房屋维修", "卫生间水龙头漏水，已经告诉陈房东，他说周末找人来修。"),
    ("春节回家", "春节坐D3135次动车回老家，腊月二十八下午三点出发。"),
    ("孩子的游泳课", "儿子每周日上午在体育馆上游泳课，一共十节课，一千二百元。"),
]
OTHER = [
    ("Sourdough notes", "Feed the starter every 12 hours with equal flour and water."),
    ("Running log", "Ran 10 km in 52 minutes along the canal; knees fine."),
    ("Rust lifetimes", "A reference cannot outlive the value it borrows from."),
    ("Houseplants", "Water the monstera when the top soil is dry; keep it out of direct sun."),
    ("Tax return", "Self assessment deadline is 31 January; gather the P60 and bank interest."),
    ("Podcast ideas", "Episode on offline-first apps, and one on local language models."),
    ("Garden plan", "Plant garlic in October, broad beans in November."),
    ("周末计划", "周末去西湖边骑车，然后去吃片儿川。"),
    ("读书笔记", "《三体》讲的是人类与三体文明的接触。"),
    ("理财", "每月定投五百元指数基金，长期持有。"),
    ("学习计划", "每天背二十个英语单词，周末复习。"),
]

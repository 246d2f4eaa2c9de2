# ruff: noqa: E501  (the notes and questions are data)
"""Write this folder's BEIR files from the notes and questions below (written for pixelmem)."""

import json
from pathlib import Path

NOTES = {
    "tap": (
        "Kitchen tap drip",
        "The kitchen tap drips because the cartridge washer is worn. Bought a 35mm ceramic cartridge at Hartley's hardware for 12 pounds. Shut the valve under the sink first, then unscrew the handle cap with a flat screwdriver.",
    ),
    "mum": (
        "Mum's 70th birthday",
        "Party on 14 June at the Riverside pavilion, about 30 guests. Cake ordered from Lotte's bakery (lemon, no nuts). Tom brings the speaker; I print the old photos for the slideshow.",
    ),
    "laptop": (
        "Laptop battery",
        "ThinkPad T14 battery health is down to 71 %. Set the charge threshold to 80 % in tlp so it ages slower. Replacement part number 5B10W51867, about 90 euros.",
    ),
    "allot": (
        "Allotment plot 12",
        "Sow broad beans in November. Earth up the potatoes when the shoots are 20 cm. Slugs ate the lettuce again: beer traps along the path. The water butt is at the north corner.",
    ),
    "passport": (
        "Passport renewal",
        "My passport expires on 2 September. Renewing online takes about three weeks. Get the photo code from the booth at the post office and keep the old passport until the new one arrives.",
    ),
    "rust": (
        "Rust borrow checker notes",
        "Error: cannot borrow `list` as mutable because it is also borrowed as immutable. Fix by ending the first borrow earlier (smaller scope) or cloning; RefCell gives interior mutability when really needed.",
    ),
    "shoes": (
        "Running shoes",
        "The Pegasus 40 are at 620 km and the midsole feels flat. Knee ache after the long Sunday runs. Replace them at 700 km at the latest.",
    ),
    "wifi": (
        "Home Wi-Fi",
        "Router in the hallway, mesh node upstairs. Channel 36 on 5 GHz avoids the neighbour's network. The guest network password is on the card in the kitchen drawer.",
    ),
    "q3": (
        "Priorities for Q3",
        "Hire two backend engineers. Move billing to Stripe before the price change. Cut cloud costs by 15 % by shutting idle staging clusters at night.",
    ),
    "aiko": (
        "Meeting with Aiko Tanaka",
        "Aiko from the design agency showed three logo directions. We keep the teal and the rounded type. She delivers mockups of the landing page by Friday and prefers email over Slack.",
    ),
    "car": (
        "Car insurance",
        "Renewal on 1 October. Quote from Direct Line 412 pounds, six years no claims, excess 250. Last year's insurer wanted 530 to renew.",
    ),
    "pickles": (
        "Pickled cucumbers",
        "3 % brine: 30 g salt per litre. Dill, garlic and a vine leaf for crunch. Five days on the counter, then into the fridge.",
    ),
    "meter": (
        "Electricity meter readings",
        "Monthly readings: January 4120, February 4388, March 4601. The smart meter installation is booked for 9 April, morning slot.",
    ),
    "chess": (
        "Chess openings",
        "Playing the Sicilian Najdorf with black. Study rook endgames every week. Rating 1450 on lichess, goal 1600 by the end of the year.",
    ),
    "tomato": (
        "阳台种番茄",
        "樱桃番茄每天浇一次水，开花以后要轻轻摇动帮助授粉。下面的叶子发黄可能是缺氮，上周施了一次液体肥。",
    ),
    "medins": (
        "医保报销",
        "门诊费用报销需要发票原件和病历本。社区医院报销比例百分之九十，每年起付线一千八百元，材料交到单位人事。",
    ),
    "move": (
        "搬家清单",
        "七月二十日搬家，已经联系好搬家公司。提前一周办宽带移机，把新地址告诉快递和银行，旧房子的钥匙交还房东。",
    ),
    "wedding": (
        "王磊的婚礼",
        "王磊十月三日在杭州办婚礼，随礼八百元。订了二号下午的高铁票，酒店离会场步行十分钟。",
    ),
    "cat": (
        "团子的体检",
        "团子每年打一次三联疫苗，驱虫每三个月一次。这次体重四点八公斤，医生说偏胖，要少给零食。",
    ),
    "venv": (
        "Python 虚拟环境",
        "每个项目用 venv 建一个虚拟环境，依赖用 pip freeze 导出到 requirements 文件，不要装到系统自带的 Python 里。",
    ),
    "diet": (
        "减脂计划",
        "每天热量控制在一千八百大卡，晚饭少吃主食，每周三次力量训练，周末称一次体重。",
    ),
    "review": (
        "年终总结",
        "今年完成了支付系统的重构，带了两个新同事。明年想转到数据平台组，多做一些架构方面的工作。",
    ),
    "reno": (
        "老家房子装修",
        "卫生间防水要刷到一米八高，瓷砖选哑光防滑的。整体预算六万，工期大概两个月。",
    ),
    "sapiens": (
        "读书：人类简史",
        "认知革命、农业革命和科学革命三个阶段。作者认为农业革命让人过得更辛苦，是一场骗局。",
    ),
}
# (question, note key or None). Kinds: para = paraphrase (few or no shared words), kw = keyword
# or code, name = a question naming someone or something, x = cross-language, none = no note
# answers it (many share a word or a character with one).
QUESTIONS = [
    ("para", "fixing a leaky faucet", "tap"),
    ("para", "when is my mother's celebration", "mum"),
    ("para", "notebook computer power cell wearing out", "laptop"),
    ("para", "pests in the vegetable garden", "allot"),
    ("para", "travel document expiry", "passport"),
    ("para", "ownership error from the compiler", "rust"),
    ("para", "when do I need new trainers", "shoes"),
    ("para", "internet signal interference from next door", "wifi"),
    ("para", "goals for this quarter at the company", "q3"),
    ("para", "the designer I met about our branding", "aiko"),
    ("para", "how much will covering the vehicle cost", "car"),
    ("para", "fermenting gherkins at home", "pickles"),
    ("para", "household energy consumption figures", "meter"),
    ("para", "board game strategy I am studying", "chess"),
    ("kw", "5B10W51867", "laptop"),
    ("kw", "Najdorf", "chess"),
    ("name", "Aiko", "aiko"),
    ("name", "What did Aiko promise to deliver?", "aiko"),
    ("name", "Which notes mention Hartley's?", "tap"),
    ("name", "When does Tom bring the speaker?", "mum"),
    ("name", "王磊什么时候结婚", "wedding"),
    ("para", "小番茄叶子变黄怎么办", "tomato"),
    ("para", "看病花的钱怎么报", "medins"),
    ("para", "换住处之前要办的事", "move"),
    ("para", "宠物打针和驱虫", "cat"),
    ("para", "给每个项目隔离依赖包", "venv"),
    ("para", "怎么瘦下来", "diet"),
    ("para", "这一年工作的回顾", "review"),
    ("para", "浴室防漏怎么做", "reno"),
    ("para", "讲智人历史的那本书", "sapiens"),
    ("x", "厨房水龙头漏水", "tap"),
    ("x", "护照快过期了", "passport"),
    ("x", "跑鞋什么时候该换", "shoes"),
    ("x", "车险续保多少钱", "car"),
    ("x", "国际象棋的开局", "chess"),
    ("x", "cat vaccination schedule", "cat"),
    ("x", "checklist for moving house", "move"),
    ("x", "bathroom waterproofing height", "reno"),
    ("x", "daily calorie target for losing weight", "diet"),
    ("x", "reimbursement of clinic bills", "medins"),
    ("none", "tap dance classes near me", None),
    ("none", "battery for the smoke alarm", None),
    ("none", "how to plant tulip bulbs", None),
    ("none", "renew my library card", None),
    ("none", "chess club membership fee", None),
    ("none", "insurance for my phone screen", None),
    ("none", "Wi-Fi password at the office", None),
    ("none", "mortgage interest rate", None),
    ("none", "how to tune a guitar", None),
    ("none", "高铁晚点怎么退票", None),
    ("none", "番茄炒蛋的做法", None),
    ("none", "猫粮品牌推荐", None),
    ("none", "装修公司的电话", None),
    ("none", "学习日语的计划", None),
    ("none", "明天的天气怎么样", None),
    ("none", "股票怎么买", None),
]

here = Path(__file__).resolve().parent
with (here / "corpus.jsonl").open("w", encoding="utf-8") as out:
    for key, (title, text) in NOTES.items():
        out.write(json.dumps({"_id": key, "title": title, "text": text}, ensure_ascii=False) + "\n")
with (here / "queries.jsonl").open("w", encoding="utf-8") as out:
    for i, (kind, text, _) in enumerate(QUESTIONS):
        out.write(json.dumps({"_id": f"{kind}-{i:02d}", "text": text}, ensure_ascii=False) + "\n")
with (here / "qrels" / "test.tsv").open("w", encoding="utf-8") as out:
    out.write("query-id\tcorpus-id\tscore\n")
    for i, (kind, _, key) in enumerate(QUESTIONS):
        if key:
            out.write(f"{kind}-{i:02d}\t{key}\t1\n")

# ruff: noqa: E501  (the notes and questions are data)
"""Write this folder's BEIR files from the notes and questions below (written for pixelmem)."""

import json
from pathlib import Path

NOTES = {
    "sourdough": (
        "Sourdough starter",
        "Feed the starter twice a day with equal weights of rye flour and water. The dough rises for about five hours at 24 degrees, then shape the loaves and leave them in the fridge overnight before baking at 250.",
    ),
    "qt": (
        "Qt worker threads",
        "Never touch a QWidget from a worker QThread. The worker emits a signal with the result and the connected slot runs on the GUI thread, which is the only place that may repaint or change labels.",
    ),
    "dentist": (
        "Dentist appointment",
        "Check-up on March 3rd at 9 am at the clinic on Elm Street. Bring the insurance card; Dr. Alvarez wants to look at the left molar again.",
    ),
    "car": (
        "Car insurance",
        "Policy KX-20931 renews on 14 October. Broker is Hannah at Northgate; last year's premium was 612 pounds with a 250 excess. Ask about the no-claims discount before renewing.",
    ),
    "marathon": (
        "Marathon training plan",
        "Sixteen weeks to the race. Long run every Sunday, adding 2 km a week up to a 32 km peak in week 13, then taper. Tuesdays intervals, Thursdays tempo, the rest easy.",
    ),
    "plants": (
        "Houseplants",
        "The monstera gets water once a week when the top soil is dry; the fiddle-leaf fig every ten days and never in standing water. Both by the east window, away from the radiator.",
    ),
    "k8s": (
        "Debugging pods",
        "When a pod is in CrashLoopBackOff: kubectl describe pod for the events, then kubectl logs --previous to read the output of the container that died. Check the liveness probe and memory limits.",
    ),
    "tax": (
        "Tax return 2024",
        "Deadline 31 January. Receipts are in the blue folder and the scans in Drive. Raj (accountant) needs the P60, the rental income and the pension statements by mid-December.",
    ),
    "speech": (
        "Best man speech",
        "For Sam's wedding in June. Open with the camping story from 2009, thank the parents, keep it under five minutes and end with the toast.",
    ),
    "espresso": (
        "Espresso dial-in",
        "18 g in, 36 g out in about 28 seconds. If it runs too fast and tastes sour, grind finer; if it chokes and tastes bitter, grind coarser. Beans rest a week after roasting.",
    ),
    "auth": (
        "认证服务设计",
        "登录用 JWT 加刷新令牌。访问令牌十五分钟过期，刷新令牌七天，存在 Redis 里，注销时删除。",
    ),
    "hike": (
        "周末爬山",
        "周六去香山，早上七点在地铁站集合。带两瓶水、干粮和雨衣，下午三点前下山。",
    ),
    "pills": (
        "妈妈的降压药",
        "妈妈每天早上吃一片氨氯地平，血压控制在一百三左右。三月底去医院复诊，记得带上血压记录本。",
    ),
    "reno": (
        "装修预算",
        "厨房三万，卫生间两万，客厅刷墙五千。工长是老李，水电先做，瓷砖下个月进场。",
    ),
    "japanese": (
        "日语学习计划",
        "每天背二十个单词，周末做一套听力题。目标是十二月的 N2 考试。",
    ),
    "tomato": (
        "阳台种番茄",
        "阳台上种了三盆番茄，每周施一次肥，长到一米要打顶，开花后轻轻摇一摇帮助授粉。",
    ),
}

# (id, question, note): the kind in the id. para: a paraphrase that shares few or no words
# with its note; x: asked in the other language; name: names someone or something.
QUESTIONS = [
    ("para-01", "bread fermentation schedule", "sourdough"),
    ("para-02", "updating widgets from a background thread", "qt"),
    ("x-03", "JWT refresh token", "auth"),
    ("para-04", "when do I see the dentist?", "dentist"),
    ("para-05", "我妈每天吃什么降压药", "pills"),
    ("para-06", "how do I read the logs of a container that crashed", "k8s"),
    ("para-07", "my coffee shot is sour and pours too quickly", "espresso"),
    ("name-08", "What did I note about Raj?", "tax"),
    ("x-09", "hiking trip on Saturday", "hike"),
    ("x-10", "kitchen renovation budget", "reno"),
    ("x-11", "马拉松训练计划", "marathon"),
    ("para-12", "how often should I water the monstera", "plants"),
]
# Questions no note answers, each sharing a word or a character with one unrelated note.
NONE = [
    ("none-01", "car boot sale this weekend"),
    ("none-02", "番茄炒蛋的做法"),
    ("none-03", "speech therapy for toddlers"),
    ("none-04", "妈妈的生日礼物"),
    ("none-05", "日本旅游签证"),
    ("none-06", "pet insurance for my dog"),
    ("none-07", "重装电脑系统"),
    ("none-08", "wedding dress shops"),
]


def main() -> None:
    here = Path(__file__).parent
    with (here / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for doc, (title, text) in NOTES.items():
            out.write(
                json.dumps({"_id": doc, "title": title, "text": text}, ensure_ascii=False) + "\n"
            )
    with (here / "queries.jsonl").open("w", encoding="utf-8") as out:
        for qid, text, *_ in QUESTIONS + NONE:
            out.write(json.dumps({"_id": qid, "text": text}, ensure_ascii=False) + "\n")
    (here / "qrels").mkdir(exist_ok=True)
    with (here / "qrels" / "test.tsv").open("w", encoding="utf-8") as out:
        out.write("query-id\tcorpus-id\tscore\n")
        for qid, _, doc in QUESTIONS:
            out.write(f"{qid}\t{doc}\t1\n")


if __name__ == "__main__":
    main()

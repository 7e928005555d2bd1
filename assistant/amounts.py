"""Money in a message: every amount with its currency, and what it is the price of.

"$2.49/hr" is a cloud price per GPU-hour, "0.8元一度" an electricity price, "$300k to buy" or "每台220万"
the price of a server, "每个月GPU云账单80万" a monthly bill, and anything else a budget. Each amount is
found once (one pattern, linear in the text) and classified by the words right before and after it,
so a message can state several prices without one rule eating another's number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from assistant.numbers import AMOUNT_BODY, CN_DIGITS, DECIMAL, NUMBER_END, flags, scaled

Kind = Literal[
    "hourly",
    "electricity",
    "server",
    "gpu",
    "monthly",
    "lease",
    "staff",
    "support",
    "colo",
    "storage",
    "infra",
    "infra_each",
    "power_bill",
    "budget",
]
Currency = Literal["USD", "CNY"]


@dataclass(frozen=True)
class Money:
    amount: float
    currency: Currency | None  # None: a bare "500万" that names no currency
    kind: Kind
    start: int
    end: int


def _number(name: str) -> str:
    return rf"(?<![\d.,{CN_DIGITS}])(?P<{name}>{AMOUNT_BODY}|[{CN_DIGITS}]+){NUMBER_END}"


_MULT = r"千万|百万|万亿|万|亿|千|k|mn|m|million|bn|b|billion"
_MONEY = flags(
    # "$300k", "US$ 2M", "¥2,000,000", "RMB 500万"
    rf"(?P<pre>us\$|\$|usd(?![a-z])|¥|￥|rmb(?![a-z])|cny(?![a-z]))\s*{_number('a')}\s*(?P<ma>{_MULT})?(?![A-Za-z])"
    # "50万美元", "300万元", "15块", "1.5 million dollars", "800k USD", "8元", "0.09 $/kWh"
    # ("1.5w刀": 1.5万 dollars, as Chinese engineers write it)
    rf"|{_number('b')}\s*个?\s*(?P<mb>{_MULT}|w)?\s*(?P<suf>美元|美金|刀|usd|dollars?|元|块钱|块|人民币|rmb|cny|yuan|\$(?!\s*\d))(?![A-Za-z])"
    # a bare Chinese amount: "预算500万", "1个亿", "每台220万" (not "12万卡时", "700亿参数", "2万亿token")
    # ("报价 110w 一台": a bare "w" is 万 where a price is talked about; elsewhere "450w" is watts)
    # ("8x h100 w/ fsdp": a card's number and "with", not 100万)
    rf"|(?<![A-Za-z]){_number('c')}\s*个?\s*(?P<mc>千万|百万|万|亿|w(?![A-Za-z/]))"
    r"(?![万亿千百]|\s*个?\s*(?:token|tok|参数|卡时|gpu|张|台|小时|词元|步|条|次|字|行|人|片|块|颗|卡))"
    # a bare price per GPU-hour: "if we pay 2.50/gpu-hr", "2.2 per GPU-hour"
    rf"|{_number('d')}(?=\s*(?:/|per)\s*(?:gpu|card|chip|accelerator)[\s-]*(?:h|hr|hrs|hour)(?![A-Za-z]))"
)
# the words around "110w" that make it money (万 yuan): "报价 110w 一台", "预算2000w", "每台 95w", "单台 150w"
_W_PRICE = flags(r"报价|预算|价格|售价|单价|总价|花了?|卖|买|租|成本|每台|一台|单台|\|\s*(?:一|每|单)\s*台")
_PER_CARD_MONTH_BEFORE = flags(r"(?:每|一)\s*(?:卡|张卡?)\s*(?:每|一)\s*个?月\s*$")
_W_WATTS = flags(r"功耗|功率|tdp|电源|psu|瓦|供电|满载|散热")
_CENTS = flags(rf"{DECIMAL}\s*(?:cents?|¢)\s*(?:/|per|a)\s*kwh")

# the network or storage named right before an amount: "networking $35k per server", "IB 网络 30 万一台"
_INFRA_WORDS = r"(?:\bib\b|infiniband|\broce\b|网络|组网|交换机|存储|\bnetwork(?:ing)?|\bfabric|\bswitch(?:es)?|\bstorage)"
_INFRA_NAMED = flags(_INFRA_WORDS + r"\s*(?:costs?|is|at|of|:|：|按|约|大概)?\s*$")
# what the words right before an amount say it pays for, whatever period follows: people ("one admin at
# $150k/yr", "运维2个人每人每年30万") and rented space ("colo $3k per month per server", "托管每月每台8000元")
_PAYS_FOR = [
    # "vendor support $15k/yr", "维保每年 8 万": support and spares for owned hardware, by the year
    (
        "support",
        flags(
            r"(?:\bsupport|\bmaintenance|\bwarranty|\bamc\b|维保|保修|原厂服务)(?:\s*(?:contract|plan|cost|fees?))?"
            r"\s*(?:is|at|of|costs?|=|:|：|约|大概|每年|一年|年费)?\s*$"
        ),
    ),
    # "IB 网络按每台 30 万", "network per server $40k": the network's or storage's cost for each machine, and
    # "存储整体 200 万": for all of them (a machine's price comes after no such word)
    (
        "infra_each",
        flags(
            _INFRA_WORDS
            + r"\s*(?:按|算)?\s*(?:每台|单台|一台|per\s+(?:server|node|box))\s*(?:约|大概|是|为|is|at|of|:|：)?\s*$"
        ),
    ),
    (
        "infra",
        flags(
            _INFRA_WORDS + r"\s*(?:按|算)?\s*(?:整体|总共|一共|合计|总价|in\s+total|total|overall)"
            r"\s*(?:约|大概|是|为|is|at|of|:|：)?\s*$"
        ),
    ),
    (
        "staff",
        flags(
            r"(?:\badmins?|\badministrators?|\bengineers?|\bsres?|\bops\b|\boperators?|\bstaff|\bheadcount|\bsalar(?:y|ies)"
            r"|\bfte|运维|工程师|人员|人力|工资|年薪|薪资)[^。.,，;；$¥]{0,16}$"
        ),
    ),
    (
        "colo",
        flags(
            # ("colo incl. power $12k/month": the abbreviation's dot ends no sentence)
            r"(?:\bcolo\b|\bcolocation|\bco-location|\bhosting|\brack (?:rent|space|fee)s?|托管|机柜(?:租金|租用|费)"
            r"|机房(?:租金|费用)|\bidc\b)(?:\bincl\.|[^。.,，;；$¥]){0,16}$"
            # "2 racks at $2,500/month each": the racks' rent
            r"|\bracks?\s*(?:at|@|for|cost(?:s|ing)?|rent(?:ed)? (?:at|for))\s*(?:about|~)?\s*$|机柜[^。.,，;；$¥\d]{0,8}$"
            # "托管 16柜，每柜每月1.2万": a rack's month is its rent (a power bill names itself: "电费每柜每月")
            r"|(?:^|[^电费])每\s*(?:个)?(?:机)?柜\s*(?:每|一)\s*(?:个)?月\s*(?:约|大概)?\s*$"
        ),
    ),
]
_PER_MONTH = flags(r"^\s*(?:/|per|an?|every|each|每)\s*(?:month|mo)\b|^\s*monthly\b|^\s*(?:/|每)\s*(?:个)?月")
# what the words right after an amount say it is the price of
_AFTER = [
    (
        "hourly",
        flags(
            r"^\s*(?:/|per|an?|每)\s*(?:gpu|card|chip|accelerator|device|npu|tpu|卡)?[\s-]*(?:h|hr|hrs|hour|小时|时)(?![A-Za-z])|^\s*/\s*(?:卡|张|gpu|card)\s*/\s*(?:小时|时|h|hr|hour)(?![A-Za-z])|^\s*(?:/|每)\s*卡\s*时|^\s*(?:/|per)\s*gpu[\s-]*h"
            # "15块钱一卡时", "2.5元每卡每小时"
            r"|^\s*(?:钱)?\s*(?:一|每|/)\s*(?:个)?\s*(?:卡时|gpu\s*时|卡\s*每?\s*小时|gpu\s*小时)"
        ),
    ),
    ("electricity", flags(r"^\s*(?:/|per|a|每|一)\s*(?:kwh|度|千瓦时)")),
    # "0.12元/GB/月", "$0.02 per GB-month", "$20/TB/month": a storage price
    ("storage", flags(r"^\s*(?:/|per|a|每)\s*(?:gb|tb)\b")),
    # "$28k per GPU", "每张卡 20 万" (an hourly price was read first: "per GPU-hour" is not this)
    (
        "gpu",
        flags(r"^\s*(?:/|per|a|each|每)\s*(?:gpu|card|卡|张)(?![\s-]*(?:h|hr|hrs|hour|小时|时)(?![A-Za-z]))"),
    ),
    # "$310k per 8xH100 HGX server": a few words may describe the machine between "per" and what it is
    (
        "server",
        flags(
            r"^\s*(?:/|per|a|each|每)\s*(?:[\w-]+\s+){0,3}?(?:node|server|box|machine)s?\b|^\s*(?:/|每|一|1)\s*(?:台|节点)|^\s*(?:to buy|each)\b"
        ),
    ),
    (
        "monthly",
        _PER_MONTH,
    ),
    # "$120k IB switches/cables, $80k storage", "30万的交换机": what the cluster's network and storage cost
    (
        "infra",
        flags(
            r"^\s*(?:of\s+|for\s+|in\s+|on\s+|worth of\s+)?(?:the\s+)?(?:ib|infiniband|roce|ethernet|network(?:ing)?|fabric"
            r"|switch(?:es)?|cabl(?:es|ing)|optics|storage|nas|parallel file system|交换机|网络|组网|存储|光模块)\b"
            r"|^\s*的\s*(?:交换机|网络设备|组网|存储|光模块)"
        ),
    ),
]
# the machines' whole price: "hardware $310k", "hw cost: $1.2M", "硬件一共 2400万"
_HARDWARE = (
    r"\b(?:hardware|hw)\s*(?:costs?|price|capex|is|of|at|=|:)?\s*(?:is|of|at|=|:)?\s*(?:about|around|~)?\s*$"
    r"|硬件\s*(?:成本|价格|费用|投入)?\s*(?:一共|总共|共计?|合计|总价)?\s*(?:是|为|:|：|约|大概)?\s*$"
)
# the text before a server price says it is the hardware's (slots share it among the machines named)
HARDWARE_BEFORE = flags(_HARDWARE)
# ... and the words right before it
_BEFORE = [
    # "月租8万", "monthly rent of $20k", "租金每月": a rent by the month
    (
        "lease",
        flags(
            # "月租报价7万": the rent quoted
            r"(?:月租金?|月付|月供|租金|包月|monthly (?:rent|lease)(?: payment)?|\brent(?:al)?)\s*(?:报价|价格?)?"
            r"\s*(?:为|是|约|大概|要|of|is|at|:|：)?\s*$"
        ),
    ),
    (
        "hourly",
        flags(
            r"(?:每卡每小时|每卡时|每\s*gpu\s*小时|每张卡每小时|每小时|per gpu[- ]hour|hourly rate(?: of| is)?)\s*$"
            # "卡时单价按12元", "GPU小时价格是15块", "GPU-hour price of $2.1"
            r"|(?:卡\s*时|gpu\s*(?:小时|时)|gpu[- ]hours?)\s*(?:的)?\s*(?:单价|价格|价钱|费用|租金|费率|prices?|rates?|costs?)"
            r"\s*(?:为|是|按|约|大概|算|is|of|at|=|:|：)?\s*(?:按|约)?\s*$"
        ),
    ),
    (
        "electricity",
        flags(r"(?:电价|电费单价|electricity(?: price)?|power)\s*(?:为|是|按|of|at|is|costs?|:)?\s*$"),
    ),
    (
        "server",
        flags(
            r"(?:每台|一台|单台|(?:server|box|node|machine|服务器|整机|机器)s?\s*(?:(?:is|are)\s*)?(?:含税|不含税|税前|税后|裸机)?\s*"
            r"(?:costs?|quoted(?: at)?|priced(?: at)?|goes for|sells for|=|价格|单价|报价|要|约|大概|at|按|算|按照"
            # "8 卡整机 quote 是 ¥220 万": a quote in English inside Chinese
            r"|quotes?\s*(?:是|为|is|=|:|：)?)?"
            r"|\bper (?:node|server))\s*(?:about|around|roughly|~|约)?\s*$"
            # "整机一台按120万算", "每台按110万": a price to reckon with
            r"|(?:每台|一台|单台|整机|服务器|机器)\s*(?:按|按照|算|以)\s*$"
            # "一台8卡H800大概200万": what the server is, then its price
            r"|(?:每台|一台|单台)[^。，,；;\d]{0,3}\d?[^。，,；;]{0,10}?(?:要|约|大概|差不多|价格|售价|报价|单价)\s*$"
            # "买要230万", "采购价 230 万", "buy it for $280k", "买的话220万"
            # "买大概220万", "买的话约230万"
            r"|买\s*(?:的话)?\s*(?:大概|约|大约|差不多)\s*$"
            # "自己买8卡A800要100万", "采购一台 8 卡 H20 大概 110 万": the machine named, then its price
            r"|(?:自己买|自购|采购|购买)[^。，,；;？?$¥￥]{0,16}?(?:要|需要|得|花|约|大概|价格|报价|是)\s*$"
            # "buying is $260k", "purchase price $260k", "buying outright costs $300k"
            r"|\b(?:buy(?:ing)?|purchas(?:e|ing))(?:\s+(?:price|cost|outright))?\s*(?:is|costs?|would be|=|:|of|at)\s*(?:about|around|~)?\s*$"
            r"|(?:自己买|自购|自建|买(?:的话|断)|购买的话|买(?:一台|下来)?(?:要|需要|得|花)|购买价|采购价|买价|to buy (?:one|it|a server)? ?(?:is|costs?|for)?|buy(?:ing)? (?:it|one|them|the (?:box|server|machine|node))\s*(?:is|costs?|for|at|would be|outright)?)\s*$"
            # "buying an 8 gpu box for $280k", "buy a DGX H100 for $300k", "买一台8卡H100 220万": a machine's price
            r"|\b(?:buy|build)(?:ing)?\s+(?:an?|one|the|a single)\s+[^.?!,;$¥]{0,24}?(?:box|server|node|machine|system|dgx[\w -]*|hgx[\w -]*)\s+for\s*$"
            r"|买(?:一|1)台[^。，,；;？?\d]{0,14}?(?:\d+\s*卡[^。，,；;？?]{0,8})?\s*$"
            # "vendor quoted $310k for an 8x H100 server": a quote is a machine's price
            r"|\b(?:quoted|priced)\s*(?:us|me|at|=|:)?\s*$"
            # "vendor quote $280k", "the OEM's quote is $300k"
            r"|\b(?:vendor|supplier|oem|reseller|dell|hpe|supermicro|lenovo|inspur|our|the|a)(?:'s)?\s+quotes?\s*(?:is|was|of|at|=|:)?\s*$"
            # "我们的报价是 320 万美元", "供应商报价 290万": a quote for the machine named
            r"|(?:我们|我方|供应商|厂商|代理商?|渠道|经销商)的?\s*报价\s*(?:是|为|:|：|大概|约)?\s*$"
            # "hardware $310k", "hw cost: $1.2M", "硬件 150万": what the machines cost (all of them when several
            # are named: the slots share it out)
            rf"|{_HARDWARE}"
        ),
    ),
    (
        "gpu",
        flags(
            r"(?:每张卡?|每卡|一张卡?|单卡|per gpu|each gpu|gpus? (?:are|is|cost|at)|(?<![\d一二两三四五六七八九十])卡(?:的)?(?:单价|价格|报价))\s*(?:约|大概|要)?\s*$"
        ),
    ),
    ("monthly", flags(r"(?:每个?月|monthly|per month|a month)[^。.,，;；]{0,12}$")),
    # "network $600k, storage $400k", "IB组网 300万", "存储另算80万": the cluster's network and storage bought
    (
        "infra",
        flags(
            # ("a quote incl network is $2.6M" is everything, network included)
            r"(?<!incl\s)(?<!incl\.\s)(?<!including\s)(?<!含)(?<!包括)(?<!包含)"
            r"(?:\bnetwork(?:ing)?|\bfabric|\bswitch(?:es|ing)?|infiniband|\bib\b|\bstorage|网络|组网|交换机|存储)"
            r"(?:\s*(?:gear|hardware|systems?|and\s+storage|&\s*storage|\+\s*storage|和存储|加存储))?"
            r"\s*(?:(?:is|are|costs?|at|of|for|=|:|：|要|约|大概|另算|另外|预算|花|another|extra|plus|on top)\s*){0,2}$"
        ),
    ),
]
_MONEY_WORDS = flags(
    r"预算|budget|花|成本|投入|资金|账单|价格|售价|报价|钱|付|买|卖|残值|回收|租|费|capex|spend|price|cost"
)
_CURRENCY: dict[str, Currency] = {
    "$": "USD", "us$": "USD", "usd": "USD", "美元": "USD", "美金": "USD", "刀": "USD", "dollar": "USD", "dollars": "USD",
    "¥": "CNY", "￥": "CNY", "rmb": "CNY", "cny": "CNY", "元": "CNY", "块": "CNY", "块钱": "CNY",
    "人民币": "CNY", "yuan": "CNY",
}  # fmt: skip


MAX_MENTIONS = 16  # a question states a few prices; past this many, the rest is not read


_CJK = flags(r"[\u4e00-\u9fff]")
_LEASE = flags(r"\blease|\bleasing|\brent(?:al|ing)?\b|租")
_MONTH = flags(r"\bmonth|\bmo\b|月")
_PER_YEAR = flags(
    r"^\s*(?:/|per|an?|every|each|每)\s*(?:yr|year|annum|年)\b|^\s*(?:/|每)\s*年|^\s*(?:一年|每年)"
)
_INCLUDED = flags(r"^[^。.;；$¥\d]{0,6}(?:含|包含|包括|including|incl\.?|with)\s*(?:托管|机柜|colo|hosting)")
_EACH_MACHINE = flags(r"(?:每台|单台|一台)\s*(?:服务器|机器|整机)?\s*(?:约|大概|要|价格|报价)?\s*$")
_COLO_AFTER = flags(r"^[^。.,，;；$¥\d]{0,32}(?:\bcolo\b|\bcolocation|\brack space|托管)")
_PRICE_EACH = flags(
    r"\s*(?:each|apiece|a piece|per (?:node|server|box|machine)|一台|每台)\b(?![^。.,，;；]{0,12}(?:month|mo\b|月))"
)
_BUILT_ONE = flags(
    r"(?:自建|自购|建|搭|买|购买)(?:一|1)\s*台[^。，,；;？?$¥\d]{0,12}?(?:\d+\s*卡[^。，,；;？?$¥]{0,8})?\s*$"
    r"|\b(?:buy|build)(?:ing)?\s+(?:an?|one|the|a single)\s+[^.?!,;$¥]{0,24}?(?:box|server|node|machine)"
    # "buy one 8x H100 server for $", "buy one 8x H100 server, quote $285k", "…server (quoted at $"
    r"(?:\s+for|\s*[,(:]?\s*(?:quoted?|priced|(?:purchase\s+)?price)(?:\s+(?:at|is|of))?\s*:?)\s*$"
)
_CLAUSE_END = flags(r"[,;，；。()（）]")
_DIGIT = flags(r"\d")
_OTHER_COST = flags(r"托管|电费|运维|维保|人工|\bcolo|\bhosting|\bpower\b|\belectricity|\bstaff|\bsupport\b")
_EACH = flags(r"^\s*(?:each|apiece|a piece|per unit)\b|^\s*(?:一张|每张)")
# "32 gpus at", "16 A100s @": a count of things, then their price (not "16 nodes of 8x H100 at": a node's shape)
_COUNTED_AT = flags(
    r"(?<!of\s)\b\d+\s+(?![x×]\s)((?:[a-z][^\s$¥,;]*\s+){0,2}?[a-z][^\s$¥,;]*)\s*(?:at|@|for|cost(?:ing)?|priced at)\s*(?:~|about|around|roughly)?\s*$"
)
_MACHINE = flags(r"dgx|hgx|server|node|box|machine|system|服务器|整机|台")
# an electricity bill for a period, not a price per kWh: "电费每台每年6万", "power bill ~$8k/month",
# "electricity costs us $120k a year"
# a running cost that names power beside other items: one bill for them all, electricity included
# a running cost that names power beside operations or racks: one bill for them all, electricity included
# (hosting with power, "托管电费每月2万", stays a hosting bill: the rented space carries the power)
_ALL_IN_RUNNING = flags(
    r"(?:电费|电力|\bpower\b|\belectricity\b)[^。.,，;；$¥\d托]{0,4}?(?:[+、和及与/&]|\band\b|,)?\s*"
    r"(?:运维|机柜|\bops\b|\brack\b)[^。.,，;；$¥\d托]{0,16}$"
    r"|(?:运维|机柜|\bops\b|\brack\b)[^。.,，;；$¥\d托]{0,4}?(?:[+、和及与/&]|\band\b|,)?\s*"
    r"(?:电费|电力|\bpower\b|\belectricity\b)[^。.,，;；$¥\d托]{0,16}$"
)
_POWER_BILL = flags(
    r"(?:(?:(?:每|一)?(?:年|个?月))?(?:电费|电力成本|电力费用|用电成本)"
    r"|(?:\b(?:yearly|annual|monthly)\s+)?\b(?:power|electricity|energy) (?:bill|costs?)"
    # (not "一年电费多少 电价0.8元": a question about the bill, then the tariff)
    r")(?:(?!电价|单价|价格|多少|几|\bprice|\btariff|\brate\b|how much|what|kwh|度)[^。.,，;；$¥\d]){0,14}$"
)
_PERIOD_BEFORE = flags(r"年|月|\b(?:yearly|annual(?:ly)?|monthly|per (?:year|month)|a (?:year|month))\b")
_KWH_AFTER = flags(r"^\s*(?:/|per|a|每|一)\s*(?:kwh|度|千瓦时)|^\s*(?:cents?|¢)")
# a message about vendors' quotes: its bare amounts are prices ("we got quotes: H100 server 235万, 910B 8卡 115万")
_QUOTING = flags(r"\bquot(?:e|es|ed|ing)\b|报价|报了|供应商报|厂商报")


def money_mentions(text: str) -> list[Money]:
    """The amounts of money in ``text`` (the first ``MAX_MENTIONS``), in order, each with its currency
    and kind."""
    found: list[Money] = []
    for n, match in enumerate(_MONEY.finditer(text)):
        if n == MAX_MENTIONS:
            break
        if match.group("a"):
            number, mult, unit = match.group("a"), match.group("ma"), match.group("pre")
        elif match.group("b"):
            number, mult, unit = match.group("b"), match.group("mb"), match.group("suf")
            mult = "万" if mult and mult.lower() == "w" else mult
        elif match.group("c"):
            number, mult, unit = match.group("c"), match.group("mc"), None
            if mult.lower() == "w":
                around = (
                    text[max(0, match.start() - 12) : match.start()]
                    + "|"
                    + text[match.end() : match.end() + 4]
                )
                if not _W_PRICE.search(around) or _W_WATTS.search(around):
                    continue  # "4090 450w", "每台功耗 700w": watts
                if _PER_CARD_MONTH_BEFORE.search(text[max(0, match.start() - 10) : match.start()]):
                    continue  # "租一卡一月 1.2w": a rent per card-month, read with the other rents per card
                mult = "万"
        else:
            number, mult, unit = match.group("d"), None, None
        currency = _CURRENCY.get(unit.strip().lower()) if unit else None
        if match.group("d"):
            # "we pay 2.50/gpu-hr": dollars in an English message, yuan in a Chinese one
            currency = "CNY" if _CJK.search(text) else "USD"
        before = text[max(0, match.start() - 40) : match.start()]
        kind, unit_length = _kind(before, text[match.end() : match.end() + 40])
        nearby = before + text[match.end() : match.end() + 8]
        if (
            unit is None
            and kind == "budget"
            and not _MONEY_WORDS.search(nearby)
            and not _QUOTING.search(text)
        ):
            continue  # "总参数6710亿" is a count; a bare amount is money only where money is talked about
        if currency is None and (kind != "budget" or (mult and _CJK.search(mult))):
            currency = "CNY"  # "每台220万", "每卡每小时15", "预算2000万" in a Chinese message: yuan
        # "rent at $2.5/GPU-hour for a month" is an hourly price for a month's use, not a monthly lease
        # the words after this amount up to the next clause: "$290k each), colo $3k per month" is no monthly price
        # (and up to the next number: "买的话一台230万 用3年 托管每月1.5万" is a price, the month is the hosting's,
        # or another cost: "买一台250万 托管电费每月2万" is a price, the month is the hosting's)
        after = _OTHER_COST.split(
            _DIGIT.split(clause(text, match.end(), match.end() + 28), maxsplit=1)[0], maxsplit=1
        )[0]
        if (
            kind == "colo"
            and _LEASE.search(text[max(0, match.start() - 12) : match.start()])
            and _INCLUDED.search(text[match.end() : match.end() + 16])
        ):
            kind = "lease"  # "租的话每月8万（含托管）": the rent of a machine that includes its hosting
        monthly = kind == "monthly" or (kind not in {"hourly", "staff", "colo"} and _MONTH.search(after))
        if monthly and _LEASE.search(text[max(0, match.start() - 48) : match.start()]):
            kind = (
                "lease"  # "lease at $18k per server per month", "租一台每月12万": a lease payment, not a bill
            )
        # the span takes in the unit ("per GPU-hour", "/kWh"), so nothing else reads it as a question
        found.append(Money(scaled(number, mult), currency, kind, match.start(), match.end() + unit_length))
    for match in _CENTS.finditer(text):
        found.append(Money(float(match.group(1)) / 100, "USD", "electricity", match.start(), match.end()))
    return sorted(found, key=lambda m: m.start)


def clause(text: str, start: int, end: int) -> str:
    """``text[start:end]`` up to the end of its clause: "8000元，运维…每年" stops at the comma, "$290k each),
    colo $3k per month" at the parenthesis."""
    return _CLAUSE_END.split(text[start:end], maxsplit=1)[0]


# a rent by the month before the amount, and a machine after it: the rent of each machine
_RENT_BEFORE = flags(
    r"(?:月租金?|月付|租金每月|每月租金|monthly (?:rent|lease)(?: payment)?)\s*(?:为|是|约|大概|要|of|is|at|:|：)?\s*$"
)
_MACHINE_AFTER = flags(
    r"^\s*(?:/|per|a|each|每|一|1)\s*(?:台|节点|node|server|box|machine)s?\b|^\s*(?:/|每|一)\s*台"
)


def _kind(before: str, after: str) -> tuple[Kind, int]:
    """What the amount is the price of, and the length of the unit written after it."""
    if _BUILT_ONE.search(before):
        return "server", 0  # "自建一台8卡230万 电+托管每月1.5万": the machine's price, whatever follows it
    if _ALL_IN_RUNNING.search(before):
        # "机柜电费运维每台每年 8万", "power, colo and ops ~$20k/yr per box": the running cost with power in it
        period = _PER_YEAR.search(after) or _PER_MONTH.search(after)
        return "power_bill", period.end() if period else 0
    if _EACH_MACHINE.search(before) and not any(pattern.search(before) for _, pattern in _PAYS_FOR):
        return "server", 0  # "每台90万 电费托管运维每台每年6万": the machine's price, whatever bill follows
    for kind, pattern in _PAYS_FOR:
        if kind == "colo" and _KWH_AFTER.search(after):
            continue  # "我们 IDC 电价 ¥0.55/kWh": a tariff per kWh, wherever the hall is
        if pattern.search(before) or (
            # "$280k each and put them in colo": each machine's price, the hall named after it
            kind == "colo" and _COLO_AFTER.search(after) and not _PRICE_EACH.match(after)
        ):
            period = _PER_MONTH.search(after) or _PER_YEAR.search(after)
            return kind, period.end() if period else 0  # type: ignore[return-value]
    # after people and hosting: "托管加电费每月1.5万" is the hosting bill, power included
    if (bill := _POWER_BILL.search(before)) and not _KWH_AFTER.search(after):
        period = _PER_YEAR.search(after) or _PER_MONTH.search(after)
        if period or _PERIOD_BEFORE.search(bill.group(0)):
            return "power_bill", period.end() if period else 0
    if (
        _EACH.search(after)
        and (counted := _COUNTED_AT.search(before))
        and not _MACHINE.search(counted.group(1))
    ):
        return "gpu", 0  # "buying 32 gpus at ~$30k each", "16 A100s at $15k each": each GPU's price
    if _RENT_BEFORE.search(before) and (per := _MACHINE_AFTER.search(after)):
        return "lease", per.end()  # "月租4.5万一台", "monthly rent $9k per server": each machine's rent
    if _INFRA_NAMED.search(before) and (each := _MACHINE_AFTER.search(after)):
        return "infra_each", each.end()  # "networking $35k per server": each machine's share of the network
    for kind, pattern in _AFTER:
        if match := pattern.search(after):
            return kind, match.end()  # type: ignore[return-value]
    for kind, pattern in _BEFORE:
        if pattern.search(before):
            return kind, 0  # type: ignore[return-value]
    return "budget", 0


def strip(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the given spans blanked out (same length, so later offsets still hold)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)

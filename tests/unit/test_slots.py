"""Slot filling, table-driven, English and Chinese."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.numbers import to_number
from assistant.slots import SlotExtractor, Slots
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex

EXTRACT = SlotExtractor(NameIndex(default_catalog())).extract

CASES: list[tuple[str, dict[str, Any]]] = [
    # model size
    ("How long to train a 70B model?", {"params_b": 70}),
    ("a 7.5 billion parameter model", {"params_b": 7.5}),
    ("训练一个700亿参数的模型", {"params_b": 70}),
    ("1.8万亿参数的MoE模型", {"params_b": 1800}),
    ("34B模型需要多少显存", {"params_b": 34}),
    ("13b model on 8 GPUs", {"params_b": 13, "gpu_count": 8}),
    ("what about a 1.5T parameter model", {"params_b": 1500}),
    ("千亿参数模型要多少卡", {"params_b": 100}),
    ("350M model for testing", {"params_b": 0.35}),
    ("a 405B dense model", {"params_b": 405}),
    ("671B total, 37B active MoE", {"params_b": 671, "active_params_b": 37}),
    ("激活参数370亿，总参数6710亿", {"params_b": 671}),
    # 激活 before a number introduces that number; it does not qualify the one before it
    ("总参数100B 激活10B", {"params_b": 100, "active_params_b": 10}),
    ("total 100B, active params 12B", {"params_b": 100, "active_params_b": 12}),
    ("fine-tune Llama 2 70B", {"model": "llama-2-70b"}),
    ("训练 Llama-3-8B 要多久", {"model": "llama-3-8b"}),
    ("DeepSeek-V3 的训练用了多少卡时", {"model": "deepseek-v3"}),
    ("GPT-3 training compute", {"model": "gpt-3-175b"}),
    ("Mixtral 8x7B on H100", {"model": "mixtral-8x7b", "gpu": "h100-sxm"}),
    # a vendor word between the count and the matched name
    ("用8张NVIDIA GB200训练", {"gpu": "gb200", "gpu_count": 8}),
    ("with 64 Google Cloud TPU v6e chips", {"gpu": "tpu-v6e", "gpu_count": 64}),
    ("用16张英伟达H100", {"gpu": "h100-sxm", "gpu_count": 16}),
    # a catalogued Ascend, L20 or Trainium2 is the card; its digits are no model size
    ("昇腾910B能训练70B吗", {"gpu": "ascend-910b2", "params_b": 70, "unknown_gpu": None}),
    ("8张910B跑70B推理", {"gpu": "ascend-910b2", "gpu_count": 8, "params_b": 70}),
    ("910B3跑70B推理要几张", {"unknown_gpu": "910B3", "params_b": 70, "gpu": None}),
    # the name ends where the model code does, not at the next Chinese word ("MLU590显存多大" names MLU590)
    ("MLU590显存多大", {"unknown_gpu": "MLU590", "gpu": None}),
    ("昆仑芯P800的显存和算力", {"unknown_gpu": "昆仑芯P800", "gpu": None}),
    ("寒武纪思元590怎么样", {"unknown_gpu": "寒武纪思元590"}),
    ("摩尔线程 MTT S4000 能训练吗", {"unknown_gpu": "摩尔线程 MTT S4000"}),
    # an exchange rate stated against the dollar
    ("and in dollars at 7.1 to the dollar?", {"usd_to_cny": 7.1}),
    ("use 7.2 rmb per usd", {"usd_to_cny": 7.2}),
    ("汇率按 7.1", {"usd_to_cny": 7.1}),
    ("budget 500k usd, done in 6 months", {"usd_to_cny": None}),
    ("is trainium2 worth it vs H100 for a 70B?", {"gpu": "trainium2", "other_gpus": ["h100-sxm"]}),
    ("H20 or L20 for serving 70B?", {"gpu": "h20", "other_gpus": ["l20"], "unknown_gpu": None}),
    # a part the catalog lacks is named as such, with the memory written after it, never a default card
    ("can a single A10G 24GB serve llama 8b?", {"unknown_gpu": "A10G", "card_memory_gb": 24, "gpu": None}),
    ("MI308X 192G 能不能训 70B", {"unknown_gpu": "MI308X", "card_memory_gb": 192, "gpu": None}),
    ("our old TPU v4 pods", {"unknown_gpu": "TPU v4", "gpu": None}),
    ("a workstation with two RTX A5000", {"unknown_gpu": "RTX A5000", "gpu": None}),
    # adapters counted per customer are served adapters, not a fine-tune
    (
        "我们有 ~40 个客户各自的 LoRA adapter，能不能一张 L40S 上 serve 全部",
        {"lora_adapters": 40, "finetune": None},
    ),
    ("we host 25 customer-specific LoRA adapters on Llama 3.1 8B", {"lora_adapters": 25, "finetune": None}),
    # a count of GPUs before LoRA is no adapter count
    ("8卡做LoRA 70B 要多少显存", {"lora_adapters": None, "finetune": "lora"}),
    # a method ruled out with the apostrophe left out is still ruled out (k13: a full fine-tune sized as LoRA)
    (
        "full-finetune llama 3.1 8B on 8x A100 80GB with FSDP. dont want to do lora for this one",
        {"finetune": "full"},
    ),
    ("full ft 13B, we don’t want LoRA here", {"finetune": "full"}),
    # the room a figure is to fit in is the rack's budget, not a server's draw
    ("how many B200 HGX servers fit in 40kW?", {"rack_kw": 40, "power_kw": None, "server_power_kw": None}),
    ("40kW 的柜子能放几台 B200", {"rack_kw": 40, "power_kw": None}),
    # the work's own length is the horizon of a cost comparison
    ("自建还是租？项目大概持续两年，利用率估计 60% 左右", {"years": 2.0, "utilization": 0.6}),
    ("the research program lasts about 2 years, buy or rent 64 H100?", {"years": 2.0, "gpu_count": 64}),
    # the English word for the memory, asked in Chinese
    (
        "MI355X 的 HBM 多大，bandwidth 和 power 多少？",
        {"spec_fields": ["memory_gb", "memory_bandwidth_gb_s", "tdp_w"]},
    ),
    # tokens
    ("on 2T tokens", {"tokens_b": 2000}),
    ("1.5T token", {"tokens_b": 1500}),
    ("2万亿token", {"tokens_b": 2000}),
    ("3000亿个token", {"tokens_b": 300}),
    ("300B tokens", {"tokens_b": 300}),
    ("15 trillion tokens", {"tokens_b": 15000}),
    ("500M tokens of domain data", {"tokens_b": 0.5}),
    ("70B model, 1.4T tokens", {"params_b": 70, "tokens_b": 1400}),
    ("34B模型、1.5T token", {"params_b": 34, "tokens_b": 1500}),
    ("7B on 1T tokens", {"params_b": 7, "tokens_b": 1000}),
    ("数据量 2T", {"tokens_b": 2000}),
    # GPUs and counts
    ("8×H100", {"gpu": "h100-sxm", "gpu_count": 8}),
    ("8x A100", {"gpu": "a100-80gb-sxm", "gpu_count": 8}),
    ("64 H100s", {"gpu": "h100-sxm", "gpu_count": 64}),
    ("8卡A100", {"gpu": "a100-80gb-sxm", "gpu_count": 8}),
    ("两台8卡H800", {"gpu": "h800", "gpu_count": 16, "gpus_per_node": 8}),
    ("用256张H100", {"gpu": "h100-sxm", "gpu_count": 256}),
    ("4 nodes of 8 H100", {"gpu": "h100-sxm", "gpu_count": 32, "gpus_per_node": 8}),
    ("H100 x 16", {"gpu": "h100-sxm", "gpu_count": 16}),
    ("1024 B200 GPUs", {"gpu": "b200", "gpu_count": 1024}),
    ("三台8卡A800服务器", {"gpu": "a800-80gb-sxm", "gpu_count": 24}),
    ("with 512 MI300X", {"gpu": "mi300x", "gpu_count": 512}),
    ("a single RTX 4090", {"gpu": "rtx-4090"}),
    ("H100 PCIe or H100 SXM?", {"gpu": "h100-pcie", "other_gpus": ["h100-sxm"]}),
    ("tensor parallel 4 on L4", {"tensor_parallel": 4, "gpu": "l4"}),
    ("compare H100, H200 and B200", {"gpu": "h100-sxm", "other_gpus": ["h200", "b200"]}),
    ("MI300X和H100对比", {"gpu": "mi300x", "other_gpus": ["h100-sxm"]}),
    ("A100 40GB", {"gpu": "a100-40gb-sxm"}),
    ("4台8卡A100 40G", {"gpu": "a100-40gb-sxm", "gpu_count": 32}),
    ("16张卡", {"gpu_count": 16}),
    ("we have 32 GPUs", {"gpu_count": 32}),
    ("换成H200呢？", {"gpu": "h200"}),
    ("换成A100呢？", {"gpu": "a100-80gb-sxm"}),
    ("Gaudi 3", {"gpu": "gaudi3"}),
    ("TPU v5p pods", {"gpu": "tpu-v5p"}),
    # precision, optimizer, sharding
    ("bf16 mixed precision", {"precision": "bf16"}),
    ("FP8 training", {"precision": "fp8"}),
    ("混合精度训练", {"precision": "bf16"}),
    ("fp32 baseline", {"precision": "fp32"}),
    ("AdamW optimizer", {"optimizer": "adamw"}),
    ("8-bit Adam", {"optimizer": "adam-8bit"}),
    ("with Adafactor", {"optimizer": "adafactor"}),
    ("SGD with momentum", {"optimizer": "sgd-momentum"}),
    ("ZeRO-3 over 8 GPUs", {"zero_stage": 3, "gpu_count": 8}),
    ("and with ZeRO-3 over 8 GPUs?", {"zero_stage": 3, "gpu_count": 8}),
    ("ZeRO stage 2", {"zero_stage": 2}),
    ("zero1", {"zero_stage": 1}),
    ("FSDP", {"zero_stage": 3}),
    ("用FSDP全分片", {"zero_stage": 3}),
    ("TP=8, PP=4", {"tensor_parallel": 8, "pipeline_parallel": 4}),
    ("tensor parallel 4", {"tensor_parallel": 4}),
    ("张量并行8，流水线并行2", {"tensor_parallel": 8, "pipeline_parallel": 2}),
    # sequence, batch, MFU
    ("sequence length 4096", {"seq_len": 4096}),
    ("seq len 8192", {"seq_len": 8192}),
    ("32k context", {"seq_len": 32768}),
    ("上下文长度 8192", {"seq_len": 8192}),
    ("序列长度为4k", {"seq_len": 4096}),
    ("context length of 128k", {"seq_len": 131072}),
    ("micro-batch 4", {"micro_batch": 4}),
    ("micro batch size of 2", {"micro_batch": 2}),
    ("global batch size 1024", {"global_batch": 1024}),
    ("MFU 45%", {"mfu": 0.45}),
    ("MFU 为 40%", {"mfu": 0.40}),
    # a global batch given in tokens is tokens per step, not the tokens to train on
    ("global batch 2M tokens, 500B tokens to go", {"batch_tokens": 2_000_000, "tokens_b": 500}),
    ("单步6秒 全局batch 4M token", {"step_time_s": 6, "batch_tokens": 4_000_000}),
    ("7.5 s per step", {"step_time_s": 7.5}),
    ("一个 step 实测 72 秒", {"step_time_s": 72}),
    ("whats the bill? add 10% for storage/egress", {"extras_share": 0.1}),
    ("另加 10% 的存储和流量费", {"extras_share": 0.1}),
    ("租 64 张 H800 30 天，每卡时 ¥15", {"gpu_count": 64, "deadline_days": 30}),
    ("the ib fabric adds ~15% per node", {"network_share": 0.15}),
    ("and if its only lora, never full ft?", {"finetune": "lora"}),
    ("开了 activation checkpointing，激活大概占多少显存", {"recompute": "full"}),
    ("activation checkpointing is on", {"recompute": "full"}),
    ("KV cache 改 fp8 呢", {"kv_precision": "fp8"}),
    ("要是只有 4 张 H20 呢，KV 还是 bf16", {"kv_precision": "bf16", "gpu_count": 4}),
    ("ckpt 写入要在 60s 内完成", {"write_seconds": 60}),
    ("换 910B 8卡机 130 万一台，网络存储同样 20%", {"gpus_per_node": 8, "network_share": 0.2}),
    ("tco for 4 hgx h200 nodes over 4 yrs", {"servers": 4}),
    (
        "单张 H100 实测 decode 2800 tok/s，每天 5 亿 output token 要几张卡",
        {"demand_tokens_per_second": 5787.04, "requests_per_day": None},
    ),
    ("we need 500M output tokens a day", {"demand_tokens_per_second": 5787.04}),
    ("买一台 220 万，按 3 年算哪个划算？先不算电费", {"exclude_power": True}),
    (
        "预训练 data 2.3T tokens，model 是 MoE，总参 46B，active 12B",
        {"tokens_b": 2300, "params_b": 46, "active_params_b": 12},
    ),
    ("MoE 总参 46B active 12B", {"params_b": 46, "active_params_b": 12}),
    (
        "13B 全参预训练，2T token，按实测 280T 算力（不是峰值）算",
        {"achieved_tflops": 280, "finetune": None},
    ),
    ("ignore power for now, which is cheaper", {"exclude_power": True}),
    ("2400 tokens/s per h100 on 32 gpus. if we go to 128 gpus", {"measured_gpus": 32, "gpu_count": 128}),
    (
        "raw corpus is 12TB of english jsonl. how much disk do i need for raw + tokenized?",
        {"raw_data_tb": 12, "to_tokenize": True},
    ),
    (
        "full ft llama 3 70b on 2 nodes of 8x h100 w/ fsdp full shard",
        {"gpu": "h100-sxm", "gpu_count": 16, "zero_stage": 3},
    ),
    ("p5.48xlarge on-demand 我们拿到的价是 $55/hr，折合每 GPU-hour 多少", {"instance_gpus": 8}),
    ("HGX H100 8 卡整机 quote 是 ¥220 万", {"server_price": 2_200_000, "server_price_currency": "CNY"}),
    ("add 15% for failed runs", {"headroom": 0.15}),
    ("每个step大概 9.5s", {"step_time_s": 9.5}),
    # DeepSeek-R1's distilled models are their Llama and Qwen bases, not the 671B MoE
    ("部署 DeepSeek-R1 14B 蒸馏版", {"model": "qwen2.5-14b", "params_b": None}),
    ("serve the R1 distill 8B", {"model": "llama-3.1-8b"}),
    ("DeepSeek-R1 full 671B", {"model": "deepseek-v3"}),
    ("团队内部用 15个人", {"concurrent": 15}),
    # recomputation switched off or on, micro-batch as mbs; 单卡 before the card with a count after it
    ("13B, mbs 4, no gradient checkpointing", {"micro_batch": 4, "recompute": "none"}),
    ("开启完整重计算", {"recompute": "full"}),
    ("单卡A100显存够吗 ZeRO-2 16卡", {"gpu": "a100-80gb-sxm", "gpu_count": 16, "zero_stage": 2}),
    ("单卡A100能训7B吗", {"gpu_count": 1}),
    # a day's requests, served at the rate of 8 busy hours
    (
        "about 1.2 million requests per day",
        {"requests_per_day": 1_200_000, "requests_per_second": 41.6667, "params_b": None},
    ),
    ("日均调用20万次", {"requests_per_day": 200_000, "requests_per_second": 6.9444}),
    # methods weighed against each other run each; one replacing another is that one
    (
        "full fine-tune vs LoRA for 13B?",
        {"params_b": 13, "finetune": "full", "finetune_options": ["full", "lora"]},
    ),
    (
        "13B 用 QLoRA 还是全参微调",
        {"params_b": 13, "finetune": "qlora", "finetune_options": ["qlora", "full"]},
    ),
    ("QLoRA instead of full fine-tuning", {"finetune": "qlora", "finetune_options": None}),
    ("70B的checkpoint多大，要存15个", {"params_b": 70, "checkpoints": 15}),
    ("how big is a 70B checkpoint? we keep 15 of them", {"params_b": 70, "checkpoints": 15}),
    # a few words between MFU and the share, but never a question about it
    ("our measured MFU on H100 is ~42%", {"mfu": 0.42}),
    ("我们MFU大概38%", {"mfu": 0.38}),
    ("mfu ~ 0.41", {"mfu": 0.41}),
    ("what MFU would we get at 30% fewer GPUs", {"mfu": None}),
    ("at 38% MFU", {"mfu": 0.38}),
    ("按MFU 50%估算", {"mfu": 0.50}),
    # fine-tuning
    ("LoRA fine-tune of a 13B", {"finetune": "lora", "params_b": 13}),
    ("QLoRA 65B on one 48GB card", {"finetune": "qlora", "params_b": 65}),
    ("全参微调7B", {"finetune": "full", "params_b": 7}),
    ("full fine-tuning", {"finetune": "full"}),
    # money
    ("$500k budget", {"budget": 500_000, "budget_currency": "USD"}),
    ("budget of $2M", {"budget": 2_000_000, "budget_currency": "USD"}),
    ("预算50万美元", {"budget": 500_000, "budget_currency": "USD"}),
    ("预算300万元", {"budget": 3_000_000, "budget_currency": "CNY"}),
    ("300万人民币", {"budget": 3_000_000, "budget_currency": "CNY"}),
    ("¥2,000,000", {"budget": 2_000_000, "budget_currency": "CNY"}),
    ("1.5 million dollars", {"budget": 1_500_000, "budget_currency": "USD"}),
    ("800k USD", {"budget": 800_000, "budget_currency": "USD"}),
    ("预算两千万元", {"budget": 20_000_000, "budget_currency": "CNY"}),
    ("1亿元预算", {"budget": 100_000_000, "budget_currency": "CNY"}),
    ("$2/GPU-hour", {"cloud_price_per_gpu_hour": 2.0, "cloud_price_currency": "USD"}),
    ("at $2.5 per GPU hour", {"cloud_price_per_gpu_hour": 2.5, "cloud_price_currency": "USD"}),
    ("云上15元/卡时", {"cloud_price_per_gpu_hour": 15.0, "cloud_price_currency": "CNY"}),
    ("每卡时2美元", {"cloud_price_per_gpu_hour": 2.0, "cloud_price_currency": "USD"}),
    ("electricity $0.12/kWh", {"electricity_price_per_kwh": 0.12, "electricity_currency": "USD"}),
    ("8 cents per kWh", {"electricity_price_per_kwh": 0.08, "electricity_currency": "USD"}),
    ("电价0.6元", {"electricity_price_per_kwh": 0.6, "electricity_currency": "CNY"}),
    ("0.5元/度", {"electricity_price_per_kwh": 0.5, "electricity_currency": "CNY"}),
    # time and use
    ("in 30 days", {"deadline_days": 30}),
    ("within 2 weeks", {"deadline_days": 14}),
    ("in 3 months", {"deadline_days": 90}),
    ("一个月内训完", {"deadline_days": 30}),
    ("要训45天", {"deadline_days": 45}),
    ("MFU预估35%，要多少张卡", {"mfu": 0.35}),
    ("模型是30B，每2000步存一次，保留6个", {"params_b": 30, "checkpoints": 6}),
    ("save every 4 hours and keep 8", {"checkpoints": 8, "checkpoint_hours": 4}),
    ("每天要服务5亿token的输出", {"demand_tokens_per_second": 5787.04}),
    ("5x hgx b200 nodes", {"servers": 5, "gpu": "b200"}),
    ("3x hgx h200 servers, quote $310k each", {"servers": 3, "server_price": 310_000}),
    ("a checkpoint every 4 hours over a 45 day run", {"deadline_days": 45, "checkpoint_hours": 4}),
    ("两周内完成", {"deadline_days": 14}),
    ("45天内", {"deadline_days": 45}),
    ("三个月内", {"deadline_days": 90}),
    ("deadline is 60 days", {"deadline_days": 60}),
    ("utilization 70%", {"utilization": 0.70}),
    ("利用率60%", {"utilization": 0.60}),
    ("at 50% utilisation", {"utilization": 0.50}),
    ("over 3 years", {"years": 3}),
    ("5年TCO", {"years": 5}),
    ("3500 tokens/s per GPU", {"tokens_per_second_per_gpu": 3500}),
    ("每卡每秒3000 token", {"tokens_per_second_per_gpu": 3000}),
    ("2.5k tokens/sec/GPU", {"tokens_per_second_per_gpu": 2500}),
    # more phrasing
    ("Train 13B on 300B tokens", {"params_b": 13, "tokens_b": 300}),
    ("a 6.7B model with 32 A100s", {"params_b": 6.7, "gpu": "a100-80gb-sxm", "gpu_count": 32}),
    ("GPT-3 sized model, 175B", {"params_b": 175, "model": "gpt-3-175b"}),
    ("Qwen2.5-72B 全参微调", {"model": "qwen2.5-72b", "finetune": "full"}),
    ("百亿参数模型", {"params_b": 10}),
    ("训练一个130亿参数模型", {"params_b": 13}),
    ("5000亿token的数据", {"tokens_b": 500}),
    ("十台8卡H100", {"gpu": "h100-sxm", "gpu_count": 80}),
    ("32张A100 80GB", {"gpu": "a100-80gb-sxm", "gpu_count": 32}),
    ("16 x H200", {"gpu": "h200", "gpu_count": 16}),
    ("2 servers with 8 B200", {"gpu": "b200", "gpu_count": 16}),
    ("MFU of 35%", {"mfu": 0.35}),
    ("预算 80 万美元", {"budget": 800_000, "budget_currency": "USD"}),
    ("budget: $1.2M", {"budget": 1_200_000, "budget_currency": "USD"}),
    ("within 90 days", {"deadline_days": 90}),
    ("半年内完成训练", {"deadline_days": 182}),
    ("60天内训完", {"deadline_days": 60}),
    ("ZeRO-1", {"zero_stage": 1}),
    ("seq length 2048, micro-batch 8", {"seq_len": 2048, "micro_batch": 8}),
    ("序列长度 32k，微批 2", {"seq_len": 32768, "micro_batch": 2}),
    # cases found by the answer evaluation
    ("$2M budget for a 13B model", {"budget": 2_000_000, "params_b": 13}),
    ("Llama 2 7B on 1T tokens", {"model": "llama-2-7b", "tokens_b": 1000}),
    ("65B模型QLoRA微调", {"finetune": "qlora", "params_b": 65}),
    ("租64张H100用30天", {"gpu_count": 64, "deadline_days": 30}),
    ("rent 8 H100s for 2 weeks", {"gpu_count": 8, "deadline_days": 14}),
    ("16 concurrent requests at 8k context", {"concurrent": 16, "seq_len": 8192}),
    ("换成ZeRO-3呢？", {"zero_stage": 3}),
    ("序列长度改成8192呢？", {"seq_len": 8192}),
    ("上下文改成32k呢？", {"seq_len": 32768}),
    ("16路并发", {"concurrent": 16}),
    # quantities users already know, read as given (issue 11: given quantities ignored)
    ("we already burned 80k GPU-hours on A100", {"gpu_hours": 80_000, "gpu": "a100-80gb-sxm"}),
    ("the job is 2.5M GPU hours", {"gpu_hours": 2_500_000}),
    ("预计要20万卡时", {"gpu_hours": 200_000}),
    ("大概 8万 GPU小时", {"gpu_hours": 80_000}),
    ("a 3.1e24 FLOPs run", {"training_flops": 3.1e24}),
    ("总计算量 5×10^23 FLOPs", {"training_flops": 5e23}),
    ("rented at $1.99/hr", {"cloud_price_per_gpu_hour": 1.99, "cloud_price_currency": "USD"}),
    ("$3 an hour per GPU", {"cloud_price_per_gpu_hour": 3.0}),
    ("每卡每小时12块", {"cloud_price_per_gpu_hour": 12.0, "cloud_price_currency": "CNY"}),
    ("租金 9元/卡/小时", {"cloud_price_per_gpu_hour": 9.0, "cloud_price_currency": "CNY"}),
    ("power is $0.07/kWh", {"electricity_price_per_kwh": 0.07}),
    ("电费1.1元一度", {"electricity_price_per_kwh": 1.1, "electricity_currency": "CNY"}),
    ("each box is $250k to buy", {"server_price": 250_000, "server_price_currency": "USD"}),
    ("quoted $310k per server", {"server_price": 310_000}),
    ("每台180万", {"server_price": 1_800_000, "server_price_currency": "CNY"}),
    ("现在每个月云上账单60万", {"monthly_bill": 600_000, "monthly_bill_currency": "CNY"}),
    ("预算800万", {"budget": 8_000_000}),
    ("手里有2个亿的预算", {"budget": 200_000_000}),
    ("the hall delivers 600 kW to IT", {"power_kw": 600}),
    ("a 1.2 MW data hall", {"power_kw": 1200}),
    ("every node pulls about 11 kW", {"server_power_kw": 11}),
    ("每台满载10.5kW", {"server_power_kw": 10.5}),
    ("15kW per node", {"server_power_kw": 15}),
    ("our racks are 20 kW", {"rack_kw": 20}),
    ("30kW的机柜能放几台", {"rack_kw": 30}),
    ("PUE 1.25", {"pue": 1.25}),
    ("PUE按1.5算", {"pue": 1.5}),
    ("6 DGX H100 servers", {"servers": 6}),
    ("12台服务器", {"servers": 12}),
    ("support is 10% of capex a year", {"maintenance_share": 0.10}),
    ("运维费用每年按采购价的6%", {"maintenance_share": 0.06}),
    ("we retain the last 8 checkpoints", {"checkpoints": 8}),
    ("保留最近10个检查点", {"checkpoints": 10}),
    ("each checkpoint is about 2.5 TB", {"checkpoint_tb": 2.5}),
    ("write it in under 90 seconds", {"write_seconds": 90}),
    ("2分钟内写完", {"write_seconds": 120}),
    ("train for 4 epochs", {"epochs": 4}),
    ("训两个epoch", {"epochs": 2}),
    ("step time is 12.5 s", {"step_time_s": 12.5}),
    ("每步要8秒", {"step_time_s": 8}),
    ("global batch 2,048 x 8,192 tokens", {"global_batch": 2048, "seq_len": 8192}),
    ("2,900 tokens/s per GPU", {"tokens_per_second_per_gpu": 2900}),
    ("each 8-GPU node does 9,000 tok/s", {"node_tokens_per_second": 9000}),
    ("peak demand is 120k tokens/s", {"demand_tokens_per_second": 120_000}),
    ("keep 25% headroom", {"headroom": 0.25}),
    ("余量留30%", {"headroom": 0.30}),
    ("token ids as uint16", {"token_bytes": 2}),
    ("用uint32存", {"token_bytes": 4}),
    ("raw data is 80 TB", {"raw_data_tb": 80}),
    ("原始数据2PB", {"raw_data_tb": 2000}),
    ("grows 500 GB per day", {"growth_tb_per_day": 0.5}),
    ("每天新增3TB", {"growth_tb_per_day": 3}),
    ("two replicas", {}),
    ("3 replicas", {"replicas": 3}),
    ("两副本", {"replicas": 2}),
    ("keep it for 2 years", {"retention_days": 730}),
    ("存半年", {}),
    ("monthly bill?", {"period": "month"}),
    ("一年电费多少", {"period": "year"}),
    ("now show it in RMB", {"target_currency": "CNY"}),
    ("换成美元大概多少", {"target_currency": "USD"}),
    ("ZeRO-3 with CPU offload", {"zero_stage": 3, "offload": True}),
    ("runs 24/7", {"utilization": 1.0}),
    ("we use it about 60% of the time", {"utilization": 0.60}),
    ("over 18 months", {"years": 1.5}),
    ("换成128卡呢", {"gpu_count": 128}),
    ("如果MFU只有30%呢", {"mfu": 0.30}),
    ("what if MFU drops to 28%", {"mfu": 0.28}),
    ("如果电价降到0.45呢", {"electricity_price_per_kwh": 0.45, "electricity_currency": "CNY"}),
    ("the 2025 H100 with 8 GPUs", {"gpu": "h100-sxm", "gpu_count": 8}),
    # full questions
    (
        "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？",
        {"gpu": "h100-sxm", "gpu_count": 256, "mfu": 0.45, "params_b": 34, "tokens_b": 1500},
    ),
    (
        "How many days to train a 70B model on 2T tokens with 512 H100s at 40% MFU?",
        {"params_b": 70, "tokens_b": 2000, "gpu": "h100-sxm", "gpu_count": 512, "mfu": 0.40},
    ),
    (
        "Budget $500k, need a 13B model trained on 1T tokens within 30 days: which GPUs?",
        {"budget": 500_000, "params_b": 13, "tokens_b": 1000, "deadline_days": 30},
    ),
    (
        "预算300万元，一个月内训完一个70B模型、2T token，选什么卡？",
        {
            "budget": 3_000_000,
            "budget_currency": "CNY",
            "deadline_days": 30,
            "params_b": 70,
            "tokens_b": 2000,
        },
    ),
    (
        "Does a 7B full fine-tune with AdamW fit on one A100 40GB at seq len 2048?",
        {"params_b": 7, "optimizer": "adamw", "gpu": "a100-40gb-sxm", "seq_len": 2048, "finetune": "full"},
    ),
    (
        "8卡H100跑13B全参微调，ZeRO-2，bf16，序列长度4096，显存够吗？",
        {
            "gpu": "h100-sxm",
            "gpu_count": 8,
            "params_b": 13,
            "zero_stage": 2,
            "precision": "bf16",
            "seq_len": 4096,
        },
    ),
    (
        "Serving Llama 2 70B with 32k context on 4x H100: how much KV cache?",
        {"model": "llama-2-70b", "seq_len": 32768, "gpu": "h100-sxm", "gpu_count": 4},
    ),
    (
        "两台8卡H800训练一个700亿参数的模型，2万亿token，要多久？",
        {"gpu": "h800", "gpu_count": 16, "params_b": 70, "tokens_b": 2000},
    ),
    (
        "Cloud at $2/GPU-hour vs buying 64 H100s over 3 years at 70% utilization?",
        {
            "cloud_price_per_gpu_hour": 2.0,
            "gpu_count": 64,
            "gpu": "h100-sxm",
            "years": 3,
            "utilization": 0.70,
        },
    ),
    (
        "电价0.6元/度，8卡H100一年电费多少？",
        {"electricity_price_per_kwh": 0.6, "gpu": "h100-sxm", "gpu_count": 8},
    ),
    # named switches: their radix and port speed, however the model is spelled (vendor datasheets)
    ("fat tree on QM9700 switches for 64 nodes", {"switch_ports": 64, "switch_gbps": 400}),
    ("Quantum X800 switches for 64 nodes", {"switch_ports": 144, "switch_gbps": 800}),
    ("交换机用 SN5600，32台服务器", {"switch_ports": 64, "switch_gbps": 800}),
    ("报价 110w 一台 8卡H20", {"server_price": 1_100_000.0, "server_price_currency": "CNY"}),
]

# Things that must NOT be read as slots.
NEGATIVE: list[tuple[str, list[str]]] = [
    ("What is the difference between H100 and H200?", ["params_b", "gpu_count", "tokens_b"]),
    ("A100 80GB memory bandwidth", ["params_b", "gpu_count"]),
    ("NVLink 4 gives 900 GB/s", ["params_b", "budget", "gpu_count"]),
    ("400 Gb/s NDR InfiniBand", ["params_b", "gpu_count"]),
    ("Is 2TB of RAM enough?", ["params_b", "tokens_b"]),
    ("你好，你能做什么？", ["params_b", "gpu", "budget"]),
    ("H100的TDP是多少瓦", ["gpu_count", "params_b"]),
    ("DGX H100 has 8 GPUs", ["params_b"]),
    ("The RTX 4090 has 24 GB", ["params_b", "gpu_count"]),
    ("Why is PCIe Gen5 x16 64 GB/s each way?", ["params_b", "gpu_count", "gpu"]),
    ("NVLink带宽900GB/s是双向的吗？", ["params_b", "gpu_count", "budget"]),
    ("H200的显存是141GB", ["params_b", "gpu_count"]),
    ("Qwen2.5-7B continued pre-training", ["params_b"]),
    ("1.2M GPU-hours on 512 GPUs", ["params_b"]),
    ("总参数6710亿，激活370亿", ["budget"]),
    ("12万卡时", ["budget", "params_b"]),
    ("2万亿token", ["budget"]),
    ("$0.09/kWh electricity", ["budget", "cloud_price_per_gpu_hour"]),
    ("in 3 months", ["years"]),
    # "450w" beside a card or a power word is watts, never 450万 yuan
    ("4090 功耗 450w 一张", ["budget", "server_price", "gpu_price"]),
    ("一台8卡4090 整机 3500w功耗", ["budget", "server_price"]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_slots(text: str, expected: dict[str, Any]) -> None:
    stated = EXTRACT(text).stated()
    for key, value in expected.items():
        actual = stated.get(key)
        if isinstance(value, float):
            assert actual == pytest.approx(value), f"{key}: {actual!r} in {stated}"
        else:
            assert actual == value, f"{key}: {actual!r} in {stated}"


@pytest.mark.parametrize(("text", "absent"), NEGATIVE, ids=[c[0][:40] for c in NEGATIVE])
def test_no_false_slots(text: str, absent: list[str]) -> None:
    stated = EXTRACT(text).stated()
    assert not set(absent) & set(stated), stated


def test_follow_ups_inherit_unstated_slots() -> None:
    first = EXTRACT("用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？")
    second = EXTRACT("换成A100呢？").merged_over(first)
    assert second.gpu == "a100-80gb-sxm"
    assert (second.gpu_count, second.params_b, second.tokens_b, second.mfu) == (256, 34, 1500, 0.45)


@pytest.mark.parametrize(
    ("text", "value"),
    # "三四" is "three or four" (its middle), never thirty-four: "一年训三四个月"
    [
        ("1,024", 1024),
        ("两", 2),
        ("十二", 12),
        ("三", 3),
        ("2.5", 2.5),
        ("三四", 3.5),
        ("两三", 2.5),
        ("三五", 4),
    ],
)
def test_numbers(text: str, value: float) -> None:
    assert to_number(text) == value


def test_the_table_covers_both_languages() -> None:
    chinese = [text for text, _ in CASES if any("\u4e00" <= ch <= "\u9fff" for ch in text)]
    assert len(CASES) + len(NEGATIVE) >= 150
    assert len(chinese) >= 45


def test_stated_leaves_out_unset_slots() -> None:
    assert Slots(gpu="h100-sxm").stated() == {"gpu": "h100-sxm"}


@pytest.mark.parametrize(
    ("text", "seq_len"),
    [
        ("serving 70B on 4x H100, fine at 8k context, but with 64k context we run out of KV cache", 65536),
        ("4k上下文没问题 但是开到32k上下文就爆显存", 32768),
        # no turn between them: the first length stated stays
        ("8k context for training and 8k context for serving", 8192),
    ],
)
def test_the_length_after_a_turn_from_what_works_is_the_one_asked(text: str, seq_len: int) -> None:
    assert EXTRACT(text).seq_len == seq_len

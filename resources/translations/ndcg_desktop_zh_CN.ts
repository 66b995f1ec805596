<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>agreement</name>
    <message>
        <source>{a} gave {grade_a}, {b} gave {grade_b}: {count} items</source>
        <translation>{a} 评为 {grade_a}，{b} 评为 {grade_b}：{count} 项</translation>
    </message>
    <message>
        <source>Confusion matrix</source>
        <translation>混淆矩阵</translation>
    </message>
    <message>
        <source>How many items each pair of grades was given by the two annotators; darker is more</source>
        <translation>两位标注者给出每对等级的条目数；颜色越深越多</translation>
    </message>
    <message>
        <source>Runs are compared on a frozen version; this one is a draft.</source>
        <translation>运行结果只在已冻结的版本上比较；此版本是草稿。</translation>
    </message>
    <message>
        <source>No run is imported, so no run is compared.</source>
        <translation>尚未导入运行结果，因此没有可比较的运行结果。</translation>
    </message>
    <message>
        <source>No query has an item rated by two or more annotators, so no run is compared.</source>
        <translation>没有任何查询含有两位及以上标注者评级的条目，因此不比较运行结果。</translation>
    </message>
    <message>
        <source>No run could be scored under these choices:</source>
        <translation>在这些选择下没有运行结果能计算得分：</translation>
    </message>
    <message>
        <source>undefined ({why})</source>
        <translation>未定义（{why}）</translation>
    </message>
    <message>
        <source>Caveat: alpha and the kappas rest on 1 item rated by two or more annotators (fewer than {few}): over so few items they say little about agreement (over one, they can only be 0, 1 or undefined)</source>
        <translation>注意：alpha 与各 kappa 只基于 1 个由两位及以上标注者评分的条目（少于 {few} 个）：条目这么少，它们几乎说明不了一致程度（只有一个条目时，它们只能是 0、1 或无定义）</translation>
    </message>
    <message>
        <source>Caveat: alpha and the kappas rest on {items} items rated by two or more annotators (fewer than {few}): over so few items they say little about agreement (over one, they can only be 0, 1 or undefined)</source>
        <translation>注意：alpha 与各 kappa 只基于 {items} 个由两位及以上标注者评分的条目（少于 {few} 个）：条目这么少，它们几乎说明不了一致程度（只有一个条目时，它们只能是 0、1 或无定义）</translation>
    </message>
    <message>
        <source>{a} - {b} ({items})</source>
        <translation>{a} - {b}（{items}）</translation>
    </message>
    <message>
        <source>Caveat: the kappas of {pairs} rest on fewer than {few} shared items</source>
        <translation>注意：{pairs} 的 kappa 只基于少于 {few} 个共同条目</translation>
    </message>
    <message>
        <source>Caveat: {model}&apos;s alpha with the people rests on {items} items (fewer than {few}): it says little about how far the model agrees with them</source>
        <translation>注意：{model} 与人工标注者的 alpha 只基于 {items} 个条目（少于 {few} 个）：它几乎说明不了该模型与人的一致程度</translation>
    </message>
    <message>
        <source>document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Caveat: 1 of the {of} items a model rated has a document or topic text that addresses the grader (the first: query {query}, document {doc}, {where} matches {pattern}; ndcg agreement lists every one): the model may have obeyed the text; read them before trusting its grades</source>
        <translation>注意：模型评过的 {of} 个条目中有 1 个的文档或主题文本在对评分者下指令（第一个：查询 {query}，文档 {doc}，{where}匹配 {pattern}；一致性报告 ndcg agreement 会列出全部）：模型可能听从了该文本；在信任其评分之前请先阅读这些条目</translation>
    </message>
    <message>
        <source>Caveat: {items} of the {of} items a model rated have a document or topic text that addresses the grader (the first: query {query}, document {doc}, {where} matches {pattern}; ndcg agreement lists every one): the model may have obeyed the text; read them before trusting its grades</source>
        <translation>注意：模型评过的 {of} 个条目中有 {items} 个的文档或主题文本在对评分者下指令（第一个：查询 {query}，文档 {doc}，{where}匹配 {pattern}；一致性报告 ndcg agreement 会列出全部）：模型可能听从了该文本；在信任其评分之前请先阅读这些条目</translation>
    </message>
    <message>
        <source>Caveat: the figures without {names} rest on {items} items rated by two or more (fewer than {few})</source>
        <translation>注意：去掉 {names} 后的数值只基于 {items} 个由两位及以上标注者评分的条目（少于 {few} 个）</translation>
    </message>
    <message>
        <source>1 or -1</source>
        <translation>1 或 -1</translation>
    </message>
    <message>
        <source>1, 1/3, -1/3 or -1</source>
        <translation>1、1/3、-1/3 或 -1</translation>
    </message>
    <message>
        <source>Caveat: Kendall&apos;s tau orders only {runs} runs, so it takes one of {count} values ({values}): it says whether their order changes, little more</source>
        <translation>注意：Kendall tau 只对 {runs} 个运行排序，因此只能取 {count} 个值之一（{values}）：它只说明顺序是否改变，别的几乎说明不了</translation>
    </message>
    <message>
        <source>Warning: {a} and {b} gave the same grade on every one of the {items} items both rated (at least {least}: one file imported twice, or one person under two names?); the figures above count those ratings twice</source>
        <translation>警告：{a} 与 {b} 在两人都评过的全部 {items} 个条目上给出了相同的等级（至少 {least} 个：同一文件导入了两次，还是同一人用了两个名字？）；上面的数值把这些评分计算了两次</translation>
    </message>
    <message>
        <source>Without {gone}: {remain} remain, with no item rated by two or more.</source>
        <translation>去掉 {gone}：剩下 {remain}，没有由两位及以上标注者评分的条目。</translation>
    </message>
    <message>
        <source>Without {gone}: alpha {alpha}, unanimous {unanimous} ({remain}: {count} annotators sharing {items} items).</source>
        <translation>去掉 {gone}：alpha {alpha}，完全一致 {unanimous}（{remain}：{count} 位标注者共同评分 {items} 个条目）。</translation>
    </message>
    <message>
        <source>Pool version</source>
        <translation>判断池版本</translation>
    </message>
    <message>
        <source>Cutoff K</source>
        <translation>截断 K</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Compute the agreement and score every run under each annotator ({keys})</source>
        <translation>计算一致性，并按每位标注者的评分为每个运行打分（{keys}）</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Runs scored at K</source>
        <translation>运行打分的 K 值</translation>
    </message>
    <message>
        <source>Agreement summary</source>
        <translation>一致性摘要</translation>
    </message>
    <message>
        <source>What to keep in mind reading the figures</source>
        <translation>阅读这些数字时需要注意的地方</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Does it matter for the systems?</source>
        <translation>分歧会影响系统排序吗？</translation>
    </message>
    <message>
        <source>Agreement per query</source>
        <translation>每个查询的一致性</translation>
    </message>
    <message>
        <source>All queries first, then each query with items rated by two or more</source>
        <translation>先列出全部查询，再列出有两位及以上标注者评分条目的每个查询</translation>
    </message>
    <message>
        <source>Pairs of annotators</source>
        <translation>标注者两两比较</translation>
    </message>
    <message>
        <source>Pair shown in the confusion matrix</source>
        <translation>混淆矩阵显示的标注者对</translation>
    </message>
    <message>
        <source>Each annotator&apos;s mean grade</source>
        <translation>每位标注者的平均等级</translation>
    </message>
    <message>
        <source>Confusion matrix of</source>
        <translation>混淆矩阵：</translation>
    </message>
    <message>
        <source>Whose grades are rows and columns</source>
        <translation>行与列分别是谁的等级</translation>
    </message>
    <message>
        <source>Leniency: each annotator&apos;s mean grade</source>
        <translation>宽严程度：每位标注者的平均等级</translation>
    </message>
    <message>
        <source>What the systems check compared</source>
        <translation>系统检查比较了什么</translation>
    </message>
    <message>
        <source>Mean nDCG of each run under each judge</source>
        <translation>每个运行在每位评判者下的平均 nDCG</translation>
    </message>
    <message>
        <source>How the ordering of the runs moves</source>
        <translation>运行排序如何变化</translation>
    </message>
    <message>
        <source>Computing the agreement…</source>
        <translation>正在计算一致性…</translation>
    </message>
    <message>
        <source>Export agreement to a folder</source>
        <translation>将一致性结果导出到文件夹</translation>
    </message>
    <message>
        <source>v{version} frozen (sha256 {hash}…)</source>
        <translation>v{version} 已冻结（sha256 {hash}…）</translation>
    </message>
    <message>
        <source>v{version} draft</source>
        <translation>v{version} 草稿</translation>
    </message>
    <message>
        <source>Choose a pool version and press Compute ({keys}).</source>
        <translation>选择一个判断池版本，然后按“计算”（{keys}）。</translation>
    </message>
    <message>
        <source>Open a project with a pool version to see how far its annotators agree.</source>
        <translation>打开一个含有判断池版本的项目，查看其标注者的一致程度。</translation>
    </message>
    <message>
        <source>Pool v{version}: {annotators}; {shared} of {rated} rated items were rated by two or more people. The people&apos;s Krippendorff&apos;s alpha (ordinal): {alpha}. Unanimous: {unanimous}.</source>
        <translation>判断池 v{version}：{annotators}；{rated} 个已评分条目中有 {shared} 个由两位及以上的人评分。人工标注者的 Krippendorff alpha（有序）：{alpha}。完全一致：{unanimous}。</translation>
    </message>
    <message>
        <source>Pool v{version}: {annotators}; {shared} of {rated} rated items were rated by two or more annotators. Krippendorff&apos;s alpha (ordinal): {alpha}. Unanimous: {unanimous}.</source>
        <translation>判断池 v{version}：{annotators}；{rated} 个已评分条目中有 {shared} 个由两位及以上标注者评分。Krippendorff alpha（有序）：{alpha}。完全一致：{unanimous}。</translation>
    </message>
    <message>
        <source>1 annotator</source>
        <translation>1 位标注者</translation>
    </message>
    <message>
        <source>{count} annotators</source>
        <translation>{count} 位标注者</translation>
    </message>
    <message>
        <source>{name} is a language model, an annotator and not the truth: its alpha with the people is {alpha} on {items} items rated by two or more; its kappas with each person are in the pairs.</source>
        <translation>{name} 是语言模型，是一位标注者而不是标准答案：它与人工标注者的 alpha 为 {alpha}（基于 {items} 个由两位及以上标注者评分的条目）；它与每个人的 kappa 见配对表。</translation>
    </message>
    <message>
        <source>(all queries)</source>
        <translation>（全部查询）</translation>
    </message>
    <message>
        <source>Rows: {a}&apos;s grade; columns: {b}&apos;s grade; {scope}</source>
        <translation>行：{a} 的等级；列：{b} 的等级；{scope}</translation>
    </message>
    <message>
        <source>all queries</source>
        <translation>全部查询</translation>
    </message>
    <message>
        <source>consensus</source>
        <translation>共识</translation>
    </message>
    <message>
        <source>
Not scored: {run}: {why}</source>
        <translation>
未打分：{run}：{why}</translation>
    </message>
    <message>
        <source>Mean nDCG over the {count} queries in which two or more annotators rated an item; an annotator&apos;s grades replace the consensus on the items they rated. {settings}</source>
        <translation>在 {count} 个有条目由两位及以上标注者评分的查询上的平均 nDCG；标注者评过的条目以其等级替代共识等级。{settings}</translation>
    </message>
    <message>
        <source>no item rated by two or more annotators</source>
        <translation>没有任何条目由两位及以上标注者评级</translation>
    </message>
    <message>
        <source>no item rated by both {a} and {b}</source>
        <translation>没有 {a} 和 {b} 都评级过的条目</translation>
    </message>
    <message>
        <source>no item rated by both</source>
        <translation>没有两人都评级过的条目</translation>
    </message>
    <message>
        <source>both gave grade {grade} to every item: kappa is undefined without variation</source>
        <translation>两人对每个条目都评为等级 {grade}：没有差异时 kappa 无定义</translation>
    </message>
    <message>
        <source>kappa is undefined for these grades</source>
        <translation>这些等级下 kappa 无定义</translation>
    </message>
    <message>
        <source>every rating is grade {grade}: alpha is undefined without variation</source>
        <translation>所有评级都是等级 {grade}：没有差异时 alpha 无定义</translation>
    </message>
    <message>
        <source>alpha is undefined for these grades</source>
        <translation>这些等级下 alpha 无定义</translation>
    </message>
    <message>
        <source>needs two or more scored runs</source>
        <translation>需要两个或以上已计算得分的运行结果</translation>
    </message>
    <message>
        <source>every run has the same mean under one of the two</source>
        <translation>在其中一方的评级下，所有运行结果的均值相同</translation>
    </message>
    <message>
        <source>tau is undefined for these means</source>
        <translation>这些均值下 tau 无定义</translation>
    </message>
    <message>
        <source>raw agreement</source>
        <translation>原始一致率</translation>
    </message>
    <message>
        <source>kappa (linear)</source>
        <translation>kappa（线性）</translation>
    </message>
    <message>
        <source>kappa (quadratic)</source>
        <translation>kappa（二次）</translation>
    </message>
    <message>
        <source>alpha</source>
        <translation>alpha</translation>
    </message>
    <message>
        <source>unanimous</source>
        <translation>完全一致</translation>
    </message>
</context>
<context>
    <name>analysis</name>
    <message>
        <source>linear gain</source>
        <translation>线性增益</translation>
    </message>
    <message>
        <source>exponential gain</source>
        <translation>指数增益</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Shared items</source>
        <translation>共同条目</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Alpha (ordinal)</source>
        <translation>Alpha（有序）</translation>
    </message>
    <message>
        <source>Unanimous</source>
        <translation>完全一致</translation>
    </message>
    <message>
        <source>Undefined because</source>
        <translation>未定义的原因</translation>
    </message>
    <message>
        <source>with</source>
        <translation>与</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Raw agreement</source>
        <translation>原始一致率</translation>
    </message>
    <message>
        <source>Kappa (linear)</source>
        <translation>Kappa（线性）</translation>
    </message>
    <message>
        <source>Kappa (quadratic)</source>
        <translation>Kappa（二次）</translation>
    </message>
    <message>
        <source>Mean grade</source>
        <translation>平均等级</translation>
    </message>
    <message>
        <source>Shared ratings</source>
        <translation>共同评分数</translation>
    </message>
    <message>
        <source>Mean grade on shared items</source>
        <translation>共同条目上的平均等级</translation>
    </message>
    <message>
        <source>Ordering under</source>
        <translation>排序依据</translation>
    </message>
    <message>
        <source>Kendall&apos;s tau</source>
        <translation>Kendall τ 系数</translation>
    </message>
    <message>
        <source>, </source>
        <comment>separator in a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>nDCG</source>
        <translation>nDCG</translation>
    </message>
    <message>
        <source>Candidate-only (diagnostic)</source>
        <translation>仅候选（诊断）</translation>
    </message>
    <message>
        <source>DCG</source>
        <translation>DCG</translation>
    </message>
    <message>
        <source>IDCG</source>
        <translation>IDCG</translation>
    </message>
    <message>
        <source>Relevant in pool</source>
        <translation>判断池中的相关文档</translation>
    </message>
    <message>
        <source>Found in top K</source>
        <translation>前 K 位中找到</translation>
    </message>
    <message>
        <source>Missed</source>
        <translation>遗漏</translation>
    </message>
    <message>
        <source>Unjudged in top K</source>
        <translation>前 K 位中未判断</translation>
    </message>
    <message>
        <source>If unjudged were 0 .. top grade</source>
        <translation>未判断记为 0 .. 最高等级</translation>
    </message>
    <message>
        <source>Tie-averaged nDCG</source>
        <translation>并列平均 nDCG</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>nDCG swing</source>
        <translation>nDCG 波动</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Regraded</source>
        <translation>改级</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Grade in v{a}</source>
        <translation>v{a} 中的等级</translation>
    </message>
    <message>
        <source>Grade in v{b}</source>
        <translation>v{b} 中的等级</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>修改人</translation>
    </message>
    <message>
        <source>When (UTC)</source>
        <translation>时间（UTC）</translation>
    </message>
    <message>
        <source>Iteration in v{a}</source>
        <translation>v{a} 中的轮次</translation>
    </message>
    <message>
        <source>Iteration in v{b}</source>
        <translation>v{b} 中的轮次</translation>
    </message>
    <message>
        <source>Mean nDCG, v{a}</source>
        <translation>平均 nDCG，v{a}</translation>
    </message>
    <message>
        <source>Mean nDCG, v{b}</source>
        <translation>平均 nDCG，v{b}</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Rank in v{a}</source>
        <translation>v{a} 中的排名</translation>
    </message>
    <message>
        <source>Rank in v{b}</source>
        <translation>v{b} 中的排名</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>regraded</source>
        <translation>改级</translation>
    </message>
    <message>
        <source>refuse the run (reject)</source>
        <translation>拒绝该运行（reject）</translation>
    </message>
    <message>
        <source>Compare pool versions</source>
        <translation>比较判断池版本</translation>
    </message>
    <message>
        <source>Earlier version</source>
        <translation>较早的版本</translation>
    </message>
    <message>
        <source>Later version</source>
        <translation>较晚的版本</translation>
    </message>
    <message>
        <source>v{version} · frozen {when} by {who}</source>
        <translation>v{version} · {when} 由 {who} 冻结</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;From</source>
        <translation>从(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;to</source>
        <translation>到(&amp;T)</translation>
    </message>
    <message>
        <source>at &amp;K</source>
        <translation>截断 K(&amp;K)</translation>
    </message>
    <message>
        <source>Compare needs two frozen pool versions.</source>
        <translation>比较需要两个已冻结的判断池版本。</translation>
    </message>
    <message>
        <source>Choose two versions and press Compare.</source>
        <translation>选择两个版本，然后按“比较”。</translation>
    </message>
    <message>
        <source>Summary of the changes</source>
        <translation>变化摘要</translation>
    </message>
    <message>
        <source>Means over the &amp;queries both judge</source>
        <translation>仅取两版均判断的查询求均值(&amp;Q)</translation>
    </message>
    <message>
        <source>Each run&apos;s means over the queries both versions judge, new topics left out</source>
        <translation>每个运行的均值只取两个版本都判断过的查询，新主题不计入</translation>
    </message>
    <message>
        <source>Queries that changed</source>
        <translation>有变化的查询</translation>
    </message>
    <message>
        <source>Items added, removed and regraded</source>
        <translation>新增、移除与改级的条目</translation>
    </message>
    <message>
        <source>Select a query on the left to see only its items</source>
        <translation>在左侧选择一个查询，只看它的条目</translation>
    </message>
    <message>
        <source>Each run&apos;s mean under both versions</source>
        <translation>每个运行在两个版本下的平均值</translation>
    </message>
    <message>
        <source>Kendall&apos;s tau between the two orderings</source>
        <translation>两种排序之间的 Kendall tau</translation>
    </message>
    <message>
        <source>Runs that could not be scored</source>
        <translation>无法打分的运行</translation>
    </message>
    <message>
        <source>Items (select a query to narrow)</source>
        <translation>条目（选择查询以缩小范围）</translation>
    </message>
    <message>
        <source>Runs under both versions</source>
        <translation>两个版本下的运行</translation>
    </message>
    <message>
        <source>Comparing pool versions…</source>
        <translation>正在比较判断池版本…</translation>
    </message>
    <message>
        <source>v{a} → v{b}: {added} added, {removed} removed, {regraded} regraded, in {queries} queries (who and when: the audit log of v{b}).</source>
        <translation>v{a} → v{b}：新增 {added}，移除 {removed}，改级 {regraded}，涉及 {queries} 个查询（修改人与时间来自 v{b} 的审计日志）。</translation>
    </message>
    <message>
        <source>Kendall&apos;s tau needs at least two runs scored under both versions.</source>
        <translation>Kendall tau 需要至少两个在两个版本下都已打分的运行。</translation>
    </message>
    <message>
        <source>Kendall&apos;s tau-b between the runs&apos; orderings under v{a} and v{b}: {tau:.4f} (p = {p}); 1 is the same order, -1 the reverse.</source>
        <translation>运行在 v{a} 与 v{b} 下排序之间的 Kendall tau-b：{tau:.4f}（p = {p}）；1 表示顺序相同，-1 表示完全相反。</translation>
    </message>
    <message>
        <source>Not scored: {runs}</source>
        <translation>未打分：{runs}</translation>
    </message>
    <message>
        <source>&amp;Compare pool versions…</source>
        <translation>比较判断池版本(&amp;C)…</translation>
    </message>
    <message>
        <source>Ratings</source>
        <translation>各人评级</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Settled by</source>
        <translation>裁定方式</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>折扣</translation>
    </message>
    <message>
        <source>Contribution</source>
        <translation>贡献</translation>
    </message>
    <message>
        <source>Cumulative DCG</source>
        <translation>累积 DCG</translation>
    </message>
    <message>
        <source>Relevant documents missed in the top K</source>
        <translation>前 K 位中遗漏的相关文档</translation>
    </message>
    <message>
        <source>The ideal ranking (from the frozen pool)</source>
        <translation>理想排序（来自冻结的判断池）</translation>
    </message>
    <message>
        <source>Relevant documents missed in the top {k} ({count})</source>
        <translation>前 {k} 位中遗漏的相关文档（{count}）</translation>
    </message>
    <message>
        <source>Unjudged</source>
        <translation>未判断</translation>
    </message>
    <message>
        <source>Their positions in the top K</source>
        <translation>其在前 K 位中的位置</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>No ranking</source>
        <translation>无排序</translation>
    </message>
    <message>
        <source>Tie at K</source>
        <translation>K 处并列</translation>
    </message>
    <message>
        <source>Where the run placed it</source>
        <translation>在运行结果中的位置</translation>
    </message>
    <message>
        <source>Cumulative IDCG</source>
        <translation>累积 IDCG</translation>
    </message>
    <message>
        <source>nDCG of {run}</source>
        <translation>{run} 的 nDCG</translation>
    </message>
    <message>
        <source>nDCG of {other}</source>
        <translation>{other} 的 nDCG</translation>
    </message>
    <message>
        <source>{other} − {run}</source>
        <translation>{other} − {run}</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>Pool version</source>
        <translation>判断池版本</translation>
    </message>
    <message>
        <source>Mean nDCG</source>
        <translation>平均 nDCG</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Saved evaluations</source>
        <translation>已保存的评估</translation>
    </message>
    <message>
        <source>Every evaluation scored in this project; reopen one to see it again</source>
        <translation>本项目中计算过的每次评估；重新打开一次即可再次查看</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <source>Reopen the selected evaluation</source>
        <translation>重新打开所选评估</translation>
    </message>
    <message>
        <source>v{version} · {hash}…</source>
        <translation>v{version} · {hash}…</translation>
    </message>
    <message>
        <source>, residual from v{version}</source>
        <translation>，依据 v{version} 的剩余评测</translation>
    </message>
    <message>
        <source>The stored run to score</source>
        <translation>要计算得分的已存储运行结果</translation>
    </message>
    <message>
        <source>Frozen pool version</source>
        <translation>已冻结的判断池版本</translation>
    </message>
    <message>
        <source>The frozen judgments the run is scored against</source>
        <translation>为运行结果评分所依据的已冻结相关性判断</translation>
    </message>
    <message>
        <source>Cutoff K</source>
        <translation>截断位置 K</translation>
    </message>
    <message>
        <source>Only the first K documents of each ranking are scored</source>
        <translation>每个排序只计算前 K 个文档的得分</translation>
    </message>
    <message>
        <source>How a grade becomes a gain: linear (the grade) or exponential (2 to the grade, minus 1)</source>
        <translation>等级如何换算为增益：线性（即等级本身）或指数（2 的等级次方减 1）</translation>
    </message>
    <message>
        <source>Queries with zero IDCG</source>
        <translation>IDCG 为零的查询</translation>
    </message>
    <message>
        <source>Whether queries without a relevant document in the pool count in the mean</source>
        <translation>判断池中没有相关文档的查询是否计入均值</translation>
    </message>
    <message>
        <source>Residual from version</source>
        <translation>剩余评测所依据的版本</translation>
    </message>
    <message>
        <source>Score residually: every document judged in an earlier frozen version leaves the run and the judgments before scoring, as TREC-COVID scored its later rounds</source>
        <translation>剩余评测：在评分之前，从运行结果和判定中移除较早冻结版本中已判定的每个文档，与 TREC-COVID 对其后续轮次的评分方式相同</translation>
    </message>
    <message>
        <source>zero-IDCG: score 0, in the mean</source>
        <translation>零 IDCG：得分为 0，计入均值</translation>
    </message>
    <message>
        <source>zero-IDCG: excluded</source>
        <translation>零 IDCG：排除</translation>
    </message>
    <message>
        <source>residual from</source>
        <translation>剩余评测，依据</translation>
    </message>
    <message>
        <source>Compare with run</source>
        <translation>与运行结果比较</translation>
    </message>
    <message>
        <source>Another run, checked and scored with the same settings, shown in the Comparison tab</source>
        <translation>另一个运行结果，以相同设置检查并计算得分，显示在“比较”标签页中</translation>
    </message>
    <message>
        <source>Check run</source>
        <translation>检查运行结果</translation>
    </message>
    <message>
        <source>Find what needs a decision before scoring: unjudged documents, duplicates… ({keys})</source>
        <translation>找出计算得分前需要决定的事项：未判断文档、重复文档… ({keys})</translation>
    </message>
    <message>
        <source>not residual</source>
        <translation>非剩余评测</translation>
    </message>
    <message>
        <source>against</source>
        <translation>对照</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>compare with</source>
        <translation>比较对象</translation>
    </message>
    <message>
        <source>Resolve before scoring</source>
        <translation>计算得分前处理</translation>
    </message>
    <message>
        <source>Shows or hides the choices for what the check found</source>
        <translation>显示或隐藏针对检查结果的处理选项</translation>
    </message>
    <message>
        <source>choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Unjudged documents</source>
        <translation>未判断文档</translation>
    </message>
    <message>
        <source>count as non-relevant (keeps its position)</source>
        <translation>视为不相关（保留其位置）</translation>
    </message>
    <message>
        <source>condense (remove, close the gaps)</source>
        <translation>压缩（移除并填补空位）</translation>
    </message>
    <message>
        <source>send for judging (adds them to a draft)</source>
        <translation>送交判断（添加到草稿）</translation>
    </message>
    <message>
        <source>Duplicate documents</source>
        <translation>重复文档</translation>
    </message>
    <message>
        <source>keep the first</source>
        <translation>保留第一次出现</translation>
    </message>
    <message>
        <source>Run queries not in the pool</source>
        <translation>运行结果中不在判断池内的查询</translation>
    </message>
    <message>
        <source>ignore them (listed)</source>
        <translation>忽略（并列出）</translation>
    </message>
    <message>
        <source>Ties</source>
        <translation>并列</translation>
    </message>
    <message>
        <source>Doc ID descending (trec_eval)</source>
        <translation>文档 ID 降序 (trec_eval)</translation>
    </message>
    <message>
        <source>Doc ID ascending</source>
        <translation>文档 ID 升序</translation>
    </message>
    <message>
        <source>File order</source>
        <translation>文件顺序</translation>
    </message>
    <message>
        <source>Pool queries without a ranking</source>
        <translation>判断池中没有排序的查询</translation>
    </message>
    <message>
        <source>{} gain</source>
        <translation>{}增益</translation>
    </message>
    <message>
        <source>score them 0 (every pool query counts)</source>
        <translation>记为 0 分（每个判断池查询都计入）</translation>
    </message>
    <message>
        <source>score only answered queries</source>
        <translation>只对有排序的查询计算得分</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Ties straddling K</source>
        <translation>跨越 K 的并列</translation>
    </message>
    <message>
        <source>Previous choices</source>
        <translation>上次的选择</translation>
    </message>
    <message>
        <source>Use these choices</source>
        <translation>使用这些选择</translation>
    </message>
    <message>
        <source>Use the previous choices</source>
        <translation>使用上次的选择</translation>
    </message>
    <message>
        <source>Check a run to see what needs a decision.</source>
        <translation>检查运行结果，查看需要决定的事项。</translation>
    </message>
    <message>
        <source>What is missing before scoring</source>
        <translation>计算得分前还缺少什么</translation>
    </message>
    <message>
        <source>Shows or hides a table of the queries the check flagged</source>
        <translation>显示或隐藏检查所标记查询的表格</translation>
    </message>
    <message>
        <source>Show flagged queries</source>
        <translation>显示已标记的查询</translation>
    </message>
    <message>
        <source>Flagged queries</source>
        <translation>已标记的查询</translation>
    </message>
    <message>
        <source>One row per flagged query: unjudged documents, duplicates, no ranking, tie at K</source>
        <translation>每个已标记查询一行：未判断文档、重复、无排序、K 处并列</translation>
    </message>
    <message>
        <source>Scored run and pool version</source>
        <translation>已计算得分的运行结果与判断池版本</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Per-query results</source>
        <translation>逐查询结果</translation>
    </message>
    <message>
        <source>One row per query; select one to see its breakdown in the tab below</source>
        <translation>每个查询一行；选中一行可在下方标签页查看其明细</translation>
    </message>
    <message>
        <source>nDCG below</source>
        <translation>nDCG 低于</translation>
    </message>
    <message>
        <source>Show only the queries whose nDCG is below the threshold</source>
        <translation>仅显示 nDCG 低于阈值的查询</translation>
    </message>
    <message>
        <source>nDCG threshold</source>
        <translation>nDCG 阈值</translation>
    </message>
    <message>
        <source>has missed relevant</source>
        <translation>有遗漏的相关文档</translation>
    </message>
    <message>
        <source>Show only the queries that missed a relevant document in the top K</source>
        <translation>仅显示在前 K 位中遗漏了相关文档的查询</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>Write per_query.csv, per_position.csv and manifest.json to a folder</source>
        <translation>将 per_query.csv、per_position.csv 和 manifest.json 写入文件夹</translation>
    </message>
    <message>
        <source>Show only queries with</source>
        <translation>仅显示符合条件的查询：</translation>
    </message>
    <message>
        <source>{settings}; zero-IDCG: {zero_idcg} of {total}</source>
        <translation>{settings}；零 IDCG：{total} 个中有 {zero_idcg} 个</translation>
    </message>
    <message>
        <source>(macro mean) · pooled ratio {pooled} (sum DCG / sum IDCG) · queries {total} total, {in_mean} in the mean, {zero_idcg} zero-IDCG, {excluded} excluded, {no_ranking} no ranking, {dropped} dropped · unjudged in top K {unjudged}, ties at K {ties}</source>
        <translation>（宏平均）· 合并比值 {pooled}（DCG 之和 / IDCG 之和）· 查询共 {total} 个，计入平均 {in_mean} 个，零 IDCG {zero_idcg} 个，排除 {excluded} 个，无排序 {no_ranking} 个，舍弃 {dropped} 个 · 前 K 位中未判断 {unjudged}，K 处并列 {ties}</translation>
    </message>
    <message>
        <source>Comparison summary</source>
        <translation>比较摘要</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>One row per query: the nDCG of both runs and their difference</source>
        <translation>每个查询一行：两个运行结果的 nDCG 及其差值</translation>
    </message>
    <message>
        <source>Export comparison CSV…</source>
        <translation>导出比较 CSV…</translation>
    </message>
    <message>
        <source>Export comparison CSV</source>
        <translation>导出比较 CSV</translation>
    </message>
    <message>
        <source>{against} · {other}: {mean} (macro mean) · better on {wins} queries, equal on {ties}, worse on {losses} (of {total} counted in both means)</source>
        <translation>{against} · {other}：{mean}（宏平均）· 在 {wins} 个查询上更好，{ties} 个相同，{losses} 个更差（两者平均中共计 {total} 个）</translation>
    </message>
    <message>
        <source>Double-click a document to read it</source>
        <translation>双击文档可阅读其内容</translation>
    </message>
    <message>
        <source>The run&apos;s top K</source>
        <translation>运行结果的前 K 位</translation>
    </message>
    <message>
        <source>The selected query&apos;s top K: each document&apos;s grade, gain, discount and contribution</source>
        <translation>所选查询的前 K 位：每个文档的等级、增益、折扣和贡献</translation>
    </message>
    <message>
        <source>The ideal ranking</source>
        <translation>理想排序</translation>
    </message>
    <message>
        <source>The best possible top K from the frozen pool, which gives the IDCG</source>
        <translation>由已冻结判断池得出的最佳前 K 位，即 IDCG 的来源</translation>
    </message>
    <message>
        <source>Missed relevant documents</source>
        <translation>遗漏的相关文档</translation>
    </message>
    <message>
        <source>Relevant documents not in the run&apos;s top K, and where the run placed them</source>
        <translation>不在运行结果前 K 位中的相关文档，及其在运行结果中的位置</translation>
    </message>
    <message>
        <source>Breakdown of the selected query</source>
        <translation>所选查询的明细</translation>
    </message>
    <message>
        <source>Choose a run in &apos;compare with&apos; and score</source>
        <translation>在“比较对象”中选择运行结果，然后计算得分</translation>
    </message>
    <message>
        <source>no other run</source>
        <translation>无其他运行结果</translation>
    </message>
    <message>
        <source>pool v{version} · {hash}…</source>
        <translation>判断池 v{version} · {hash}…</translation>
    </message>
    <message>
        <source>Import a run (File ▸ Import run) and freeze a pool version (Pool ▸ Freeze draft) to score.</source>
        <translation>导入运行结果（文件 ▸ 导入运行结果）并冻结一个判断池版本（判断池 ▸ 冻结草稿）后即可计算得分。</translation>
    </message>
    <message>
        <source>Resolve before scoring: every flag has a choice (show)</source>
        <translation>计算得分前处理：每个标记均已选择处理方式（显示）</translation>
    </message>
    <message>
        <source>Hide flagged queries</source>
        <translation>隐藏已标记的查询</translation>
    </message>
    <message>
        <source>Check the run to see what needs a decision.</source>
        <translation>检查运行结果，查看需要决定的事项。</translation>
    </message>
    <message>
        <source>; </source>
        <comment>separator between problems</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>Last time {run} was scored against this version: {choices}. Use them again?</source>
        <translation>上次 {run} 相对此版本计算得分时的选择：{choices}。再次使用吗？</translation>
    </message>
    <message>
        <source> · </source>
        <comment>between runs</comment>
        <translation> · </translation>
    </message>
    <message>
        <source>{run}: {found}</source>
        <translation>{run}：{found}</translation>
    </message>
    <message>
        <source>Send for judging…</source>
        <translation>送交判断…</translation>
    </message>
    <message>
        <source>Preview the unjudged documents a draft pool would get, then confirm ({keys})</source>
        <translation>预览草稿判断池将加入的未判断文档，然后确认（{keys}）</translation>
    </message>
    <message>
        <source>The unjudged documents will be added to a draft pool for grading; you will see exactly which before anything changes. Score again once that draft is frozen.</source>
        <translation>未判断文档将加入草稿判断池以供评级；任何改动之前，你会先看到具体是哪些文档。草稿冻结后再次计算得分。</translation>
    </message>
    <message>
        <source>{run}: {count}</source>
        <translation>{run}：{count}</translation>
    </message>
    <message>
        <source>{group} ({runs}) need a choice</source>
        <translation>{group}（{runs}）需要选择</translation>
    </message>
    <message>
        <source>Before scoring: {problems}.</source>
        <translation>计算得分前：{problems}。</translation>
    </message>
    <message>
        <source>Ready to score.</source>
        <translation>可以计算得分。</translation>
    </message>
    <message>
        <source>Unjudged within the depth</source>
        <translation>深度内未判断</translation>
    </message>
    <message>
        <source>Already waiting in the draft</source>
        <translation>已在草稿中等待</translation>
    </message>
    <message>
        <source>To add</source>
        <translation>将加入</translation>
    </message>
    <message>
        <source>only the pool version&apos;s queries (the ones the score counts)</source>
        <translation>仅判断池版本中的查询（计入得分的查询）</translation>
    </message>
    <message>
        <source>every query the run answered</source>
        <translation>运行结果回答的每个查询</translation>
    </message>
    <message>
        <source>Send for judging</source>
        <translation>送交判断</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Only each query&apos;s first documents, to this rank</source>
        <translation>仅每个查询排在此名次之前的文档</translation>
    </message>
    <message>
        <source>Annotator</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Shared queries</source>
        <translation>共享查询</translation>
    </message>
    <message>
        <source>Items to grade</source>
        <translation>待评级条目</translation>
    </message>
    <message>
        <source>What will be added</source>
        <translation>将加入的内容</translation>
    </message>
    <message>
        <source>Documents to add, per query</source>
        <translation>每个查询将加入的文档</translation>
    </message>
    <message>
        <source>Per query: unjudged documents within the depth, and how many are new</source>
        <translation>每个查询：深度内的未判断文档，以及其中新增的数量</translation>
    </message>
    <message>
        <source>Add to the draft pool</source>
        <translation>加入草稿判断池</translation>
    </message>
    <message>
        <source>Depth (top documents of each query)</source>
        <translation>深度（每个查询排名靠前的文档）</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>正在计数…</translation>
    </message>
    <message>
        <source>draft pool v{version}</source>
        <translation>草稿判断池 v{version}</translation>
    </message>
    <message>
        <source>a new draft pool (a copy of the latest frozen version)</source>
        <translation>新的草稿判断池（最新冻结版本的副本）</translation>
    </message>
    <message>
        <source>{count} documents of {run} in {queries} queries will be added to {where}, to be graded; documents already waiting are not added again. Nothing changes until you confirm.</source>
        <translation>{run} 在 {queries} 个查询中的 {count} 个文档将加入{where}以供评级；已在等待的文档不会重复加入。确认之前不会有任何改动。</translation>
    </message>
    <message>
        <source>Add {count} documents</source>
        <translation>加入 {count} 个文档</translation>
    </message>
    <message>
        <source>Send {count} documents of {run} for judging</source>
        <translation>将 {run} 的 {count} 个文档送交判断</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>计算得分</translation>
    </message>
    <message>
        <source>Score the run with these choices ({keys})</source>
        <translation>按这些选择计算运行结果的得分 ({keys})</translation>
    </message>
    <message>
        <source>Checking the run…</source>
        <translation>正在检查运行结果…</translation>
    </message>
    <message>
        <source>{total} in {queries} queries ({in_top_k} in the top {k})</source>
        <translation>{queries} 个查询中共 {total} 个（前 {k} 位中有 {in_top_k} 个）</translation>
    </message>
    <message>
        <source>Found: {flags}</source>
        <translation>发现：{flags}</translation>
    </message>
    <message>
        <source>{ties} (the tie-averaged nDCG is shown beside each)</source>
        <translation>{ties}（每项旁显示并列平均 nDCG）</translation>
    </message>
    <message>
        <source>no ranking</source>
        <translation>无排序</translation>
    </message>
    <message>
        <source>tie</source>
        <translation>并列</translation>
    </message>
    <message>
        <source>Show flagged queries ({count})</source>
        <translation>显示已标记的查询 ({count})</translation>
    </message>
    <message>
        <source>No flagged queries</source>
        <translation>没有已标记的查询</translation>
    </message>
    <message>
        <source>Scoring…</source>
        <translation>正在计算得分…</translation>
    </message>
    <message>
        <source>The scores are shown but not recorded in the project: {problem}</source>
        <translation>得分已显示，但未记录到项目中：{problem}</translation>
    </message>
    <message>
        <source>{count} documents of {run} await grading in draft pool v{version}. Grade them, freeze the draft, then score again.</source>
        <translation>{run} 的 {count} 个文档正在草稿判断池 v{version} 中等待评级。请完成评级并冻结草稿，然后重新计算得分。</translation>
    </message>
    <message>
        <source>zero IDCG</source>
        <translation>零 IDCG</translation>
    </message>
    <message>
        <source>excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <source>tie at K</source>
        <translation>K 处并列</translation>
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>unjudged</source>
        <translation>未判断</translation>
    </message>
    <message>
        <source>not returned</source>
        <translation>未返回</translation>
    </message>
    <message>
        <source>position {position}</source>
        <translation>第 {position} 位</translation>
    </message>
    <message>
        <source>{run}, query {query}: nDCG {ndcg} against the whole frozen pool v{version} (sha256 {hash}…); candidate-only {candidate} (ideal taken from the returned documents only: it measures ordering among what was returned, and ignores what was missed).</source>
        <translation>{run}，查询 {query}：相对整个冻结判断池 v{version}（sha256 {hash}…）的 nDCG 为 {ndcg}；仅候选 {candidate}（理想排序只取自返回的文档：它衡量返回文档之间的排序，忽略遗漏的文档）。</translation>
    </message>
    <message>
        <source>Residual: the documents judged in v{version} are removed from the pool and the ranking.</source>
        <translation>剩余评测：在 v{version} 中已判定的文档已从判断池和排序中移除。</translation>
    </message>
    <message>
        <source>Tie at K: the tie-averaged nDCG is {ndcg}.</source>
        <translation>K 处并列：并列平均 nDCG 为 {ndcg}。</translation>
    </message>
    <message>
        <source>Document {doc_id}</source>
        <translation>文档 {doc_id}</translation>
    </message>
    <message>
        <source>Document text</source>
        <translation>文档文本</translation>
    </message>
    <message>
        <source>The text of {doc_id} was not imported (File ▸ Import documents).</source>
        <translation>未导入 {doc_id} 的文本（文件 ▸ 导入文档）。</translation>
    </message>
    <message>
        <source>Breakdown, comparison and history</source>
        <translation>明细、比较与历史</translation>
    </message>
    <message>
        <source>Adding documents to the draft pool…</source>
        <translation>正在将文档加入草稿判断池…</translation>
    </message>
    <message>
        <source>Export results to a folder</source>
        <translation>将结果导出到文件夹</translation>
    </message>
    <message>
        <source>Export comparison</source>
        <translation>导出比较</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>exponential</source>
        <translation>指数</translation>
    </message>
    <message>
        <source>unjudged: {}</source>
        <translation>未判断：{}</translation>
    </message>
    <message>
        <source>reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>zero</source>
        <translation>记为零</translation>
    </message>
    <message>
        <source>condense</source>
        <translation>压缩</translation>
    </message>
    <message>
        <source>duplicates: {}</source>
        <translation>重复：{}</translation>
    </message>
    <message>
        <source>first</source>
        <translation>保留首个</translation>
    </message>
    <message>
        <source>zero-IDCG: {}</source>
        <translation>零 IDCG：{}</translation>
    </message>
    <message>
        <source>queries: {}</source>
        <translation>查询：{}</translation>
    </message>
    <message>
        <source>pool</source>
        <translation>判断池</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>unknown queries: {}</source>
        <translation>未知查询：{}</translation>
    </message>
    <message>
        <source>ignore</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>ties: {}</source>
        <translation>并列：{}</translation>
    </message>
    <message>
        <source>docid-desc</source>
        <translation>文档 ID 降序</translation>
    </message>
    <message>
        <source>docid-asc</source>
        <translation>文档 ID 升序</translation>
    </message>
    <message>
        <source>file-order</source>
        <translation>文件顺序</translation>
    </message>
    <message>
        <source>kept in the mean</source>
        <translation>计入均值</translation>
    </message>
    <message>
        <source>log2 discount</source>
        <translation>log2 折扣</translation>
    </message>
    <message>
        <source>scale {scale}</source>
        <translation>等级范围 {scale}</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the parts of a settings line</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>, IDs mapped by {file}</source>
        <translation>，ID 由 {file} 映射</translation>
    </message>
    <message>
        <source>, IDs cut at {separator}</source>
        <translation>，ID 截断于 {separator}</translation>
    </message>
    <message>
        <source>{count} unjudged documents ({top} in the top {k}) need a policy</source>
        <translation>{count} 个未判断文档（前 {k} 位中有 {top} 个）需要选择处理方式</translation>
    </message>
    <message>
        <source>{count} duplicate documents need a policy</source>
        <translation>{count} 个重复文档需要选择处理方式</translation>
    </message>
    <message>
        <source>{count} run queries are not in the pool</source>
        <translation>运行结果中有 {count} 个查询不在判断池中</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>query {id}</source>
        <translation>查询 {id}</translation>
    </message>
    <message>
        <source>{items} and {more} more</source>
        <translation>{items} 及另外 {more} 个</translation>
    </message>
    <message>
        <source>{count} queries ({items})</source>
        <translation>{count} 个查询（{items}）</translation>
    </message>
    <message>
        <source>needs a choice for {groups}</source>
        <translation>需要为{groups}作出选择</translation>
    </message>
    <message>
        <source>{run} against pool v{version} (sha256 {hash}…)</source>
        <translation>{run} 相对判断池 v{version}（sha256 {hash}…）</translation>
    </message>
    <message>
        <source>, residual from v{version} (sha256 {hash}…): {documents} documents judged there removed from the run, {judgments} judgments removed ({left} left)</source>
        <translation>，依据 v{version}（sha256 {hash}…）的剩余评测：从运行结果中移除了在该版本中已判定的 {documents} 个文档，移除了 {judgments} 条判定（剩余 {left} 条）</translation>
    </message>
    <message>
        <source>Letter</source>
        <translation>字母</translation>
    </message>
    <message>
        <source>Mean nDCG (beats)</source>
        <translation>nDCG 均值（显著优于）</translation>
    </message>
    <message>
        <source>95% CI</source>
        <translation>95% 置信区间</translation>
    </message>
    <message>
        <source>Pooled ratio</source>
        <translation>合并比值</translation>
    </message>
    <message>
        <source>Judged@K</source>
        <translation>前 K 位已判断比例</translation>
    </message>
    <message>
        <source>Queries in the mean</source>
        <translation>计入平均的查询</translation>
    </message>
    <message>
        <source>Ties at K</source>
        <translation>K 处并列</translation>
    </message>
    <message>
        <source>Tie-averaged mean</source>
        <translation>并列平均后的均值</translation>
    </message>
    <message>
        <source>The run&apos;s choices</source>
        <translation>该运行结果的选择</translation>
    </message>
    <message>
        <source>Run a</source>
        <translation>运行结果 a</translation>
    </message>
    <message>
        <source>Run b</source>
        <translation>运行结果 b</translation>
    </message>
    <message>
        <source>Difference b - a</source>
        <translation>差值 b - a</translation>
    </message>
    <message>
        <source>Its 95% CI</source>
        <translation>其 95% 置信区间</translation>
    </message>
    <message>
        <source>Effect size d_z</source>
        <translation>效应量 d_z</translation>
    </message>
    <message>
        <source>Wins/ties/losses of b</source>
        <translation>b 的胜/平/负</translation>
    </message>
    <message>
        <source>p (t)</source>
        <translation>p（t 检验）</translation>
    </message>
    <message>
        <source>p (Wilcoxon)</source>
        <translation>p（Wilcoxon）</translation>
    </message>
    <message>
        <source>p (randomization)</source>
        <translation>p（随机化）</translation>
    </message>
    <message>
        <source>Corrected p</source>
        <translation>校正后的 p</translation>
    </message>
    <message>
        <source>Queries needed</source>
        <translation>所需查询数</translation>
    </message>
    <message>
        <source>nDCG {a}</source>
        <translation>nDCG {a}</translation>
    </message>
    <message>
        <source>nDCG {b}</source>
        <translation>nDCG {b}</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>已判断数</translation>
    </message>
    <message>
        <source>Relevant found</source>
        <translation>找到的相关文档</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>所占比例</translation>
    </message>
    <message>
        <source>tau_b</source>
        <translation>tau_b</translation>
    </message>
    <message>
        <source>tau_ap</source>
        <translation>tau_ap</translation>
    </message>
    <message>
        <source>Max rank change</source>
        <translation>最大排名变化</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <source>Mean (full pool)</source>
        <translation>均值（完整判断池）</translation>
    </message>
    <message>
        <source>Mean (without own)</source>
        <translation>均值（去除自身文档）</translation>
    </message>
    <message>
        <source>Rank (full)</source>
        <translation>排名（完整）</translation>
    </message>
    <message>
        <source>Rank (without own)</source>
        <translation>排名（去除自身文档）</translation>
    </message>
    <message>
        <source>Unique relevant</source>
        <translation>独有相关文档</translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>请先打开一个项目。</translation>
    </message>
    <message>
        <source>The project has no frozen version to serve as the oracle: freeze a pool first.</source>
        <translation>该项目没有可作为标准答案的冻结版本：请先冻结一个判断池。</translation>
    </message>
    <message>
        <source>A pooling study needs at least two stored runs: import runs first.</source>
        <translation>判断池研究至少需要两个已存储的运行结果：请先导入运行结果。</translation>
    </message>
    <message>
        <source>Relevant found (solid) and tau_b (dashed) against judgments</source>
        <translation>找到的相关文档（实线）与 tau_b（虚线）随判断数的变化</translation>
    </message>
    <message>
        <source>Pooling simulation chart</source>
        <translation>判断池模拟图</translation>
    </message>
    <message>
        <source>Line chart per strategy: relevant documents found (solid, left axis) and Kendall&apos;s tau_b of the runs&apos; order (dashed, right axis) at each budget&apos;s number of judgments.</source>
        <translation>每个策略一条折线：在每个预算的判断数下，找到的相关文档（实线，左轴）与运行结果排序的 Kendall tau_b（虚线，右轴）。</translation>
    </message>
    <message>
        <source>{strategy} tau_b</source>
        <translation>{strategy} tau_b</translation>
    </message>
    <message>
        <source>{count} strategies at {budgets} budgets.</source>
        <translation>{count} 个策略，{budgets} 个预算。</translation>
    </message>
    <message>
        <source>Mean with and without the run&apos;s own documents</source>
        <translation>含与不含运行结果自身文档时的均值</translation>
    </message>
    <message>
        <source>Reusability chart</source>
        <translation>可重用性图</translation>
    </message>
    <message>
        <source>One point per run: its mean nDCG against the full pool across, against the pool without the documents only its group contributed up. Points below the diagonal lost by being left out.</source>
        <translation>每个运行结果一个点：横轴为相对完整判断池的平均 nDCG，纵轴为相对去除仅由其所在组贡献的文档后的判断池的平均 nDCG。位于对角线下方的点因被排除而失分。</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>equal</source>
        <translation>相等</translation>
    </message>
    <message>
        <source>mean (full pool)</source>
        <translation>均值（完整判断池）</translation>
    </message>
    <message>
        <source>mean (without own)</source>
        <translation>均值（去除自身文档）</translation>
    </message>
    <message>
        <source>{count} runs.</source>
        <translation>{count} 个运行结果。</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>Pool depth</source>
        <translation>判断池深度</translation>
    </message>
    <message>
        <source>nDCG@</source>
        <translation>nDCG@</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Study results</source>
        <translation>研究结果</translation>
    </message>
    <message>
        <source>Running the study…</source>
        <translation>正在运行研究…</translation>
    </message>
    <message>
        <source>Choose the runs and press Run.</source>
        <translation>选择运行结果，然后按“运行”。</translation>
    </message>
    <message>
        <source>Simulate pooling</source>
        <translation>模拟判断池构建</translation>
    </message>
    <message>
        <source>Strategies</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Budgets</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Comma-separated: documents per query (20), a share of each query&apos;s depth pool (10%), or a total (total:500).</source>
        <translation>以逗号分隔：每个查询的文档数（20）、每个查询深度判断池的比例（10%），或总数（total:500）。</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Oracle: frozen version v{version}. The depth pool holds {documents} documents, {relevant} relevant.</source>
        <translation>标准答案：冻结版本 v{version}。深度判断池含 {documents} 个文档，其中 {relevant} 个相关。</translation>
    </message>
    <message>
        <source>Export the simulation into a folder</source>
        <translation>将模拟结果导出到文件夹</translation>
    </message>
    <message>
        <source>Wrote {count} files into {folder}.</source>
        <translation>已将 {count} 个文件写入 {folder}。</translation>
    </message>
    <message>
        <source>Reusability</source>
        <translation>可重用性</translation>
    </message>
    <message>
        <source>Group runs by</source>
        <translation>运行结果分组方式</translation>
    </message>
    <message>
        <source>each run its own group</source>
        <translation>每个运行结果自成一组</translation>
    </message>
    <message>
        <source>A regular expression searched in each run&apos;s name: runs with the same match (its first group if it has one) are one team, left out together.</source>
        <translation>在每个运行结果名称中搜索的正则表达式：匹配相同（若有捕获组则取第一个组）的运行结果属于同一团队，一起被排除。</translation>
    </message>
    <message>
        <source>Group by (regex)</source>
        <translation>分组（正则表达式）</translation>
    </message>
    <message>
        <source>Oracle: frozen version v{version}. tau_b over all runs: {tau}.</source>
        <translation>标准答案：冻结版本 v{version}。所有运行结果的 tau_b：{tau}。</translation>
    </message>
    <message>
        <source>&amp;Simulate pooling…</source>
        <translation>模拟判断池构建(&amp;S)…</translation>
    </message>
    <message>
        <source>Re&amp;usability…</source>
        <translation>可重用性(&amp;U)…</translation>
    </message>
    <message>
        <source>Expected at as many</source>
        <translation>同等判断数下的预期</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Relevant found against judgments</source>
        <translation>相关文档数与判断数</translation>
    </message>
    <message>
        <source>Pool economics chart</source>
        <translation>判断池成本效益图</translation>
    </message>
    <message>
        <source>Line chart: relevant documents found after each judgment, for the draft and for the strategy simulated on the latest frozen version.</source>
        <translation>折线图：每次判断后找到的相关文档数，分别为本草稿，以及在最新冻结版本上模拟的策略。</translation>
    </message>
    <message>
        <source>this draft</source>
        <translation>本草稿</translation>
    </message>
    <message>
        <source>expected (frozen version)</source>
        <translation>预期（冻结版本）</translation>
    </message>
    <message>
        <source>judgments</source>
        <translation>判断数</translation>
    </message>
    <message>
        <source>relevant found</source>
        <translation>找到的相关文档</translation>
    </message>
    <message>
        <source>{relevant} relevant found in {judged} judgments.</source>
        <translation>{judged} 次判断中找到 {relevant} 个相关文档。</translation>
    </message>
    <message>
        <source>Pool economics</source>
        <translation>判断池成本效益</translation>
    </message>
    <message>
        <source>Query shown</source>
        <translation>显示的查询</translation>
    </message>
    <message>
        <source>&amp;Compute</source>
        <translation>计算(&amp;C)</translation>
    </message>
    <message>
        <source>Each query&apos;s judgments</source>
        <translation>每个查询的判断</translation>
    </message>
    <message>
        <source>&amp;Query</source>
        <translation>查询(&amp;Q)</translation>
    </message>
    <message>
        <source>Computing the pool&apos;s economics…</source>
        <translation>正在计算判断池的成本效益…</translation>
    </message>
    <message>
        <source>All queries</source>
        <translation>所有查询</translation>
    </message>
    <message>
        <source>There is no draft pool being judged.</source>
        <translation>没有正在判断的草稿判断池。</translation>
    </message>
    <message>
        <source>Press Compute to see the draft&apos;s relevant found so far.</source>
        <translation>按“计算”查看草稿目前找到的相关文档。</translation>
    </message>
    <message>
        <source>Draft v{version}, pooled by {strategy}: {found} relevant found in {judged} judgments.</source>
        <translation>草稿 v{version}，由 {strategy} 构建判断池：{judged} 次判断中找到 {found} 个相关文档。</translation>
    </message>
    <message>
        <source>No frozen version yet: no expected curve.</source>
        <translation>尚无冻结版本：没有预期曲线。</translation>
    </message>
    <message>
        <source>The frozen version did not judge this query: no expected curve.</source>
        <translation>冻结版本未判断此查询：没有预期曲线。</translation>
    </message>
    <message>
        <source>Expected: simulated on frozen version v{oracle}.</source>
        <translation>预期：在冻结版本 v{oracle} 上模拟。</translation>
    </message>
    <message>
        <source>Pool &amp;economics…</source>
        <translation>判断池成本效益(&amp;E)…</translation>
    </message>
</context>
<context>
    <name>charts</name>
    <message>
        <source>Cumulative gain by position</source>
        <translation>各位置的累积增益</translation>
    </message>
    <message>
        <source>Cumulative DCG and IDCG chart</source>
        <translation>累积 DCG 与 IDCG 图表</translation>
    </message>
    <message>
        <source>Line chart of the selected query: the run&apos;s cumulative DCG and the ideal ranking&apos;s cumulative IDCG at each position up to K; the gap between the lines is what the run lost.</source>
        <translation>所选查询的折线图：运行结果在 K 以内各位置的累积 DCG 与理想排序的累积 IDCG；两条线之间的差距就是运行结果的损失。</translation>
    </message>
    <message>
        <source>the run (cumulative DCG)</source>
        <translation>运行结果（累积 DCG）</translation>
    </message>
    <message>
        <source>ideal (cumulative IDCG)</source>
        <translation>理想排序（累积 IDCG）</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>cumulative gain</source>
        <translation>累积增益</translation>
    </message>
    <message>
        <source>At position {k} the run&apos;s cumulative DCG is {dcg}; the ideal&apos;s is {idcg}.</source>
        <translation>在第 {k} 位，运行结果的累积 DCG 为 {dcg}，理想排序的为 {idcg}。</translation>
    </message>
    <message>
        <source>Per-query nDCG</source>
        <translation>逐查询 nDCG</translation>
    </message>
    <message>
        <source>Per-query nDCG scatter plot</source>
        <translation>逐查询 nDCG 散点图</translation>
    </message>
    <message>
        <source>One point per query: its nDCG in the run across, in the other run up. Points above the diagonal are queries the other run scores higher.</source>
        <translation>每个查询一个点：横轴为其在本运行结果中的 nDCG，纵轴为在另一运行结果中的 nDCG。对角线上方的点表示另一运行结果得分更高的查询。</translation>
    </message>
    <message>
        <source>equal</source>
        <translation>相等</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>other run</source>
        <translation>另一运行结果</translation>
    </message>
    <message>
        <source>queries ({count})</source>
        <translation>查询 ({count})</translation>
    </message>
    <message>
        <source>{run} nDCG</source>
        <translation>{run} nDCG</translation>
    </message>
    <message>
        <source>{count} queries: {first} across, {second} up.</source>
        <translation>{count} 个查询：横轴为 {first}，纵轴为 {second}。</translation>
    </message>
    <message>
        <source>Queries by nDCG</source>
        <translation>查询的 nDCG 分布</translation>
    </message>
    <message>
        <source>Histogram of per-query nDCG</source>
        <translation>逐查询 nDCG 直方图</translation>
    </message>
    <message>
        <source>Bar chart: how many queries fall in each nDCG bin, one bar colour per run.</source>
        <translation>柱状图：落在各 nDCG 区间内的查询数，每个运行结果一种柱色。</translation>
    </message>
    <message>
        <source>nDCG (each bar: from this value to the next)</source>
        <translation>nDCG（每根柱：从此值到下一个值）</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>查询数</translation>
    </message>
    <message>
        <source>, </source>
        <comment>list separator</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>Runs shown: {runs}.</source>
        <translation>显示的运行结果：{runs}。</translation>
    </message>
    <message>
        <source>Means and confidence intervals</source>
        <translation>均值与置信区间</translation>
    </message>
    <message>
        <source>Interval plot of the runs</source>
        <translation>运行结果的区间图</translation>
    </message>
    <message>
        <source>One column per run: the dot is its mean nDCG over the queries, the whisker its bootstrap confidence interval. Runs whose whiskers do not overlap differ clearly; the paired tests decide.</source>
        <translation>每个运行结果一列：圆点是其在各查询上的 nDCG 均值，须线是其自助法置信区间。须线不重叠的运行结果差别明显；是否显著由配对检验决定。</translation>
    </message>
    <message>
        <source>mean nDCG</source>
        <translation>nDCG 均值</translation>
    </message>
    <message>
        <source>nDCG@{k}: means and {level} confidence intervals</source>
        <translation>nDCG@{k}：均值与 {level} 置信区间</translation>
    </message>
    <message>
        <source>; </source>
        <comment>between runs</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>{run} {mean} [{low}, {high}]</source>
        <translation>{run} {mean} [{low}, {high}]</translation>
    </message>
</context>
<context>
    <name>commands</name>
    <message>
        <source>Another program is writing to the project file and holds its lock ({error}). Nothing was saved; try again when it has finished.</source>
        <translation>另一个程序正在写入项目文件并持有其锁（{error}）。未保存任何内容；请在它完成后重试。</translation>
    </message>
    <message>
        <source>The project file could not be written ({error}). Nothing was saved.</source>
        <translation>无法写入项目文件（{error}）。未保存任何内容。</translation>
    </message>
    <message>
        <source>Grade {doc_id} ungraded for {query_id}</source>
        <translation>将查询 {query_id} 中的 {doc_id} 设为未评级</translation>
    </message>
    <message>
        <source>Grade {doc_id} as {grade} for {query_id}</source>
        <translation>将查询 {query_id} 中的 {doc_id} 评为等级 {grade}</translation>
    </message>
    <message>
        <source>{doc_id} was not graded</source>
        <translation>{doc_id} 未能评级</translation>
    </message>
    <message>
        <source>The next batch of {query_id} was not added</source>
        <translation>{query_id} 的下一批未能加入</translation>
    </message>
    <message>
        <source>The grade of {doc_id} could not be undone</source>
        <translation>无法撤销 {doc_id} 的评级</translation>
    </message>
    <message>
        <source>Note on {doc_id} for {query_id}</source>
        <translation>查询 {query_id} 中 {doc_id} 的备注</translation>
    </message>
    <message>
        <source>The note on {doc_id} was not saved</source>
        <translation>{doc_id} 的备注未能保存</translation>
    </message>
    <message>
        <source>The note on {doc_id} could not be undone</source>
        <translation>无法撤销 {doc_id} 的备注</translation>
    </message>
    <message>
        <source>Edit the grading guidelines</source>
        <translation>编辑评分指南</translation>
    </message>
</context>
<context>
    <name>dialogs</name>
    <message>
        <source>0 … 9</source>
        <translation>0 … 9</translation>
    </message>
    <message>
        <source>Grade the current document and move to the next ungraded one</source>
        <translation>为当前文档评级并转到下一个未评级文档</translation>
    </message>
    <message>
        <source>↑ ↓ or J / K</source>
        <translation>↑ ↓ 或 J / K</translation>
    </message>
    <message>
        <source>Previous / next document</source>
        <translation>上一个 / 下一个文档</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Next query that still has ungraded documents</source>
        <translation>下一个仍有未评级文档的查询</translation>
    </message>
    <message>
        <source>E</source>
        <translation>E</translation>
    </message>
    <message>
        <source>Edit the note of the current document (Enter saves, Esc returns)</source>
        <translation>编辑当前文档的备注（Enter 保存，Esc 返回）</translation>
    </message>
    <message>
        <source>Ctrl+F</source>
        <translation>Ctrl+F</translation>
    </message>
    <message>
        <source>Filter the query list</source>
        <translation>筛选查询列表</translation>
    </message>
    <message>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <source>Show or hide the grading guidelines</source>
        <translation>显示或隐藏评分指南</translation>
    </message>
    <message>
        <source>Ctrl+Z</source>
        <translation>Ctrl+Z</translation>
    </message>
    <message>
        <source>Undo the last grade, note or pool edit</source>
        <translation>撤销上一次评分、备注或判断池编辑</translation>
    </message>
    <message>
        <source>Ctrl+Shift+Z / Ctrl+Y</source>
        <translation>Ctrl+Shift+Z / Ctrl+Y</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Ctrl+N</source>
        <translation>Ctrl+N</translation>
    </message>
    <message>
        <source>New project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <source>Ctrl+O</source>
        <translation>Ctrl+O</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Ctrl+W</source>
        <translation>Ctrl+W</translation>
    </message>
    <message>
        <source>Close project</source>
        <translation>关闭项目</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>Build pool from runs</source>
        <translation>从运行结果构建判断池</translation>
    </message>
    <message>
        <source>Ctrl+Shift+F</source>
        <translation>Ctrl+Shift+F</translation>
    </message>
    <message>
        <source>Freeze the draft pool</source>
        <translation>冻结草稿判断池</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Add a document to the query&apos;s pool</source>
        <translation>向该查询的判断池添加文档</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Remove the selected ungraded document</source>
        <translation>移除所选的未评级文档</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>Export a frozen version as qrels</source>
        <translation>将冻结版本导出为 qrels</translation>
    </message>
    <message>
        <source>Ctrl+Shift+D</source>
        <translation>Ctrl+Shift+D</translation>
    </message>
    <message>
        <source>Compare two frozen pool versions</source>
        <translation>比较两个已冻结的判断池版本</translation>
    </message>
    <message>
        <source>F5</source>
        <translation>F5</translation>
    </message>
    <message>
        <source>Scores: check the run (count every flag)</source>
        <translation>得分：检查运行结果（统计所有标记）</translation>
    </message>
    <message>
        <source>Ctrl+Enter</source>
        <translation>Ctrl+Enter</translation>
    </message>
    <message>
        <source>Scores: score (once every flag has a choice)</source>
        <translation>得分：计算得分（所有标记均已选择处理方式后）</translation>
    </message>
    <message>
        <source>Runs: check the compared runs</source>
        <translation>运行结果对比：检查参与比较的运行结果</translation>
    </message>
    <message>
        <source>Runs: score and compare</source>
        <translation>运行结果对比：计算得分并比较</translation>
    </message>
    <message>
        <source>Agreement: compute</source>
        <translation>一致性：计算</translation>
    </message>
    <message>
        <source>Adjudicate: the selected item&apos;s grade</source>
        <translation>裁定：选中条目的等级</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>This list</source>
        <translation>本列表</translation>
    </message>
    <message>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <source>Quit (everything is already saved)</source>
        <translation>退出（所有内容均已保存）</translation>
    </message>
    <message>
        <source>Not relevant</source>
        <translation>不相关</translation>
    </message>
    <message>
        <source>Marginally relevant</source>
        <translation>略微相关</translation>
    </message>
    <message>
        <source>Relevant</source>
        <translation>相关</translation>
    </message>
    <message>
        <source>Related</source>
        <translation>有关联</translation>
    </message>
    <message>
        <source>Highly relevant</source>
        <translation>高度相关</translation>
    </message>
    <message>
        <source>Perfect</source>
        <translation>完美</translation>
    </message>
    <message>
        <source>Grade {grade}</source>
        <translation>等级 {grade}</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Lowest grade</source>
        <translation>最低等级</translation>
    </message>
    <message>
        <source>Highest grade</source>
        <translation>最高等级</translation>
    </message>
    <message>
        <source>Your name, recorded with every grade</source>
        <translation>您的姓名，将随每次评级一起记录</translation>
    </message>
    <message>
        <source>Annotator</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Grades from</source>
        <translation>等级范围</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Create…</source>
        <translation>创建…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Label of each grade&lt;/b&gt;</source>
        <translation>&lt;b&gt;各等级的标签&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Label of grade {grade}</source>
        <translation>等级 {grade} 的标签</translation>
    </message>
    <message>
        <source>The lowest grade must not be above the highest.</source>
        <translation>最低等级不能高于最高等级。</translation>
    </message>
    <message>
        <source>Every grade needs a label.</source>
        <translation>每个等级都需要一个标签。</translation>
    </message>
    <message>
        <source>Enter the annotator&apos;s name: it is recorded with every grade.</source>
        <translation>请输入标注者姓名：它将随每次评级一起记录。</translation>
    </message>
    <message>
        <source>Import judgments</source>
        <translation>导入相关性判断</translation>
    </message>
    <message>
        <source>As the pool&apos;s judgments (credited to the file {name})</source>
        <translation>作为判断池的相关性判断（记在文件 {name} 名下）</translation>
    </message>
    <message>
        <source>As an annotator&apos;s ratings</source>
        <translation>作为一位标注者的评级</translation>
    </message>
    <message>
        <source>Make the draft equal to this file (a corrected release: adds, withdraws, regrades)</source>
        <translation>使草稿与此文件完全一致（更正版发布：新增、撤回、改级）</translation>
    </message>
    <message>
        <source>The annotator&apos;s name</source>
        <translation>标注者的名字</translation>
    </message>
    <message>
        <source>An annotator&apos;s ratings are settled as after a merge: the file&apos;s items the draft lacks join it, and items rated differently wait in the Adjudicate view. Without a draft, one is started.</source>
        <translation>标注者的评级按合并后的方式确定：草稿中没有的文件条目会加入草稿，评级不一致的条目在“裁定”视图中等待处理。没有草稿时会新建一个。</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>score, highest first</source>
        <translation>得分，从高到低</translation>
    </message>
    <message>
        <source>rank column, lowest first</source>
        <translation>排名列，从低到高</translation>
    </message>
    <message>
        <source>the order of the lines in the file</source>
        <translation>文件中各行的顺序</translation>
    </message>
    <message>
        <source>; the rank column is ignored, as trec_eval does</source>
        <translation>；与 trec_eval 一样忽略排名列</translation>
    </message>
    <message>
        <source>; scores are ignored (not trec_eval&apos;s order)</source>
        <translation>；忽略得分（不是 trec_eval 的排序）</translation>
    </message>
    <message>
        <source>; scores and ranks are ignored</source>
        <translation>；忽略得分和排名</translation>
    </message>
    <message>
        <source>Import run</source>
        <translation>导入运行结果</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>运行结果名称</translation>
    </message>
    <message>
        <source>Equal scores or ranks</source>
        <translation>得分或排名相同时</translation>
    </message>
    <message>
        <source>e.g. # turns doc12#3 into doc12 (leave empty for none)</source>
        <translation>例如 # 会将 doc12#3 变为 doc12（留空表示不截断）</translation>
    </message>
    <message>
        <source>Cut IDs at</source>
        <translation>ID 截断字符</translation>
    </message>
    <message>
        <source>Map file…</source>
        <translation>映射文件…</translation>
    </message>
    <message>
        <source>Choose a chunk map file</source>
        <translation>选择分块映射文件</translation>
    </message>
    <message>
        <source>A file listing each chunk&apos;s document: JSONL or CSV/TSV with chunk_id and doc_id</source>
        <translation>列出每个分块所属文档的文件：含 chunk_id 和 doc_id 的 JSONL 或 CSV/TSV</translation>
    </message>
    <message>
        <source>Order rankings by</source>
        <translation>排序依据</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Order by</source>
        <translation>排序依据</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Score / rank</source>
        <translation>得分 / 排名</translation>
    </message>
    <message>
        <source>The first lines as they will be read</source>
        <translation>前几行的读取结果</translation>
    </message>
    <message>
        <source>How the file is read</source>
        <translation>文件读取方式</translation>
    </message>
    <message>
        <source>&lt;b&gt;The first lines, as they will be read&lt;/b&gt;</source>
        <translation>&lt;b&gt;前几行的读取结果&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{order} (the file&apos;s default)</source>
        <translation>{order}（该文件的默认值）</translation>
    </message>
    <message>
        <source>{doc_id} → ({file})</source>
        <translation>{doc_id} → （{file}）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>The run needs a name.</source>
        <translation>运行结果需要一个名称。</translation>
    </message>
    <message>
        <source>A run named {name} exists already.</source>
        <translation>已存在名为 {name} 的运行结果。</translation>
    </message>
    <message>
        <source>Chunk map file</source>
        <translation>分块映射文件</translation>
    </message>
    <message>
        <source>Chunk maps (*.jsonl *.csv *.tsv *.gz);;All files (*)</source>
        <translation>分块映射 (*.jsonl *.csv *.tsv *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Clear map file</source>
        <translation>清除映射文件</translation>
    </message>
    <message>
        <source>IDs are mapped by {file}</source>
        <translation>ID 由 {file} 映射</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行结果</translation>
    </message>
    <message>
        <source>Pool depth</source>
        <translation>判断池深度</translation>
    </message>
    <message>
        <source>{format} run, ordered by {order}{ignored}.</source>
        <translation>{format} 运行结果，排序依据：{order}{ignored}。</translation>
    </message>
    <message>
        <source>New to the pool</source>
        <translation>判断池中新增</translation>
    </message>
    <message>
        <source>Documents each query would gain</source>
        <translation>每个查询将新增的文档</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Depth k</source>
        <translation>深度 k</translation>
    </message>
    <message>
        <source>Add to draft</source>
        <translation>添加到草稿</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>正在计数…</translation>
    </message>
    <message>
        <source>No runs imported yet: a pool is built from the documents runs returned. Import one with File ▸ Import run…, then come back here.</source>
        <translation>尚未导入任何运行结果：判断池由运行结果返回的文档构建。请先通过“文件 ▸ 导入运行结果…”导入一个，再回到这里。</translation>
    </message>
    <message>
        <source>Choose at least one run.</source>
        <translation>请至少选择一个运行结果。</translation>
    </message>
    <message>
        <source>{total} new documents for {queries} queries will await grading.</source>
        <translation>{queries} 个查询的 {total} 个新文档将等待评级。</translation>
    </message>
    <message>
        <source>Freeze pool version {version}</source>
        <translation>冻结判断池版本 {version}</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Depth pool</source>
        <translation>深度判断池</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Chosen</source>
        <translation>已选</translation>
    </message>
    <message>
        <source>the depth</source>
        <translation>等于深度</translation>
    </message>
    <message>
        <source>The runs&apos; order breaks the strategy&apos;s ties.</source>
        <translation>运行结果的顺序决定策略中并列者的先后。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>all: every candidate</source>
        <translation>全部：所有候选文档</translation>
    </message>
    <message>
        <source>Documents per query (20), a share of each query&apos;s depth pool (10%), or a total (total:500).</source>
        <translation>每个查询的文档数（20），每个查询深度判断池的比例（10%），或总数（total:500）。</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>An adaptive strategy adds this many documents a query at a time; the next batch is chosen once people have graded the last one.</source>
        <translation>自适应策略每次为每个查询加入这么多文档；人工评级完上一批后再选下一批。</translation>
    </message>
    <message>
        <source>all: every query the runs answered</source>
        <translation>全部：运行结果回答的所有查询</translation>
    </message>
    <message>
        <source>This is the first batch: each query&apos;s next batch is chosen from people&apos;s grades once its batch is graded, until its budget is spent.</source>
        <translation>这是第一批：每个查询的一批评级完后，依据人工评级选出其下一批，直到预算用完。</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Grade {grade} · {label}</source>
        <translation>等级 {grade} · {label}</translation>
    </message>
    <message>
        <source>{count} ungraded</source>
        <translation>{count} 个未评级</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Ungraded</source>
        <translation>未评级</translation>
    </message>
    <message>
        <source>{count} of them: settle them in the Adjudicate tab first</source>
        <translation>其中 {count} 项：请先在“裁定”标签页中裁定</translation>
    </message>
    <message>
        <source>Awaiting adjudication</source>
        <translation>待裁定</translation>
    </message>
    <message>
        <source>Remove the {count} ungraded items from this version</source>
        <translation>从此版本中移除 {count} 个未评级项</translation>
    </message>
    <message>
        <source>Freeze anyway (the work still out is recorded in the audit log)</source>
        <translation>仍然冻结（尚未交回的工作将记入审计日志）</translation>
    </message>
    <message>
        <source>Still handed out</source>
        <translation>仍在外发</translation>
    </message>
    <message>
        <source>Freezing makes this version permanent: its judgments can never change, and scores name it by its SHA-256 hash. Later rounds start from a new draft.</source>
        <translation>冻结会使此版本永久固定：其相关性判断永远不能更改，得分将以其 SHA-256 哈希值标识该版本。后续轮次从新草稿开始。</translation>
    </message>
    <message>
        <source>Freeze</source>
        <translation>冻结</translation>
    </message>
</context>
<context>
    <name>file_dialogs</name>
    <message>
        <source>Cannot make the folder {folder}: {reason}</source>
        <translation>无法创建文件夹 {folder}：{reason}</translation>
    </message>
</context>
<context>
    <name>guidelines</name>
    <message>
        <source>Grading guidelines</source>
        <translation>评分指南</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Edit the grading guidelines</source>
        <translation>编辑评分指南</translation>
    </message>
    <message>
        <source>Guidelines notice</source>
        <translation>指南提示</translation>
    </message>
    <message>
        <source>Guidelines</source>
        <translation>指南</translation>
    </message>
    <message>
        <source>Show or hide with {key}</source>
        <translation>用 {key} 显示或隐藏</translation>
    </message>
    <message>
        <source>sha256 {hash}…</source>
        <translation>sha256 {hash}…</translation>
    </message>
    <message>
        <source>No grading guidelines yet. Edit… writes them here; ndcg set-guidelines PROJECT FILE.md sets them from a file. Manifests name them by SHA-256.</source>
        <translation>尚无评分指南。点“编辑…”在此撰写；ndcg set-guidelines PROJECT FILE.md 从文件设置。清单以 SHA-256 标明所用指南。</translation>
    </message>
    <message>
        <source>Guidelines (Markdown)</source>
        <translation>指南（Markdown）</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Saved in the project with who changed them and when; Edit ▸ Undo takes a change back. A pool version frozen from now on names these guidelines by SHA-256 in its manifests.</source>
        <translation>保存在项目中，并记录修改人和时间；“编辑 ▸ 撤销”可撤回修改。此后冻结的评审判断池版本会在清单中以 SHA-256 标明这些指南。</translation>
    </message>
    <message>
        <source>The guidelines were not saved: {problem}</source>
        <translation>指南未保存：{problem}</translation>
    </message>
</context>
<context>
    <name>judge</name>
    <message>
        <source>Items no person has rated</source>
        <translation>尚无人评级的条目</translation>
    </message>
    <message>
        <source>Items people rated (to measure the model)</source>
        <translation>已有人评级的条目（用于衡量模型）</translation>
    </message>
    <message>
        <source>Every item of the draft</source>
        <translation>草稿中的全部条目</translation>
    </message>
    <message>
        <source>Open a project first.</source>
        <translation>请先打开一个项目。</translation>
    </message>
    <message>
        <source>The project is open read-only: a model&apos;s ratings cannot be recorded.</source>
        <translation>项目以只读方式打开：无法记录模型的评级。</translation>
    </message>
    <message>
        <source>The project has no draft: start one (Pool ▸ New draft) to judge it.</source>
        <translation>项目没有草稿：请先新建一个（判断池 ▸ 从此版本新建草稿）再评判。</translation>
    </message>
    <message>
        <source>Name the model the server should use.</source>
        <translation>请填写服务器应使用的模型名称。</translation>
    </message>
    <message>
        <source>Judge with a model</source>
        <translation>用模型评判</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>none (a local server needs no key)</source>
        <translation>无（本地服务器无需密钥）</translation>
    </message>
    <message>
        <source>Environment variable holding the API key</source>
        <translation>存放 API 密钥的环境变量</translation>
    </message>
    <message>
        <source>the built-in template</source>
        <translation>内置模板</translation>
    </message>
    <message>
        <source>Prompt template file</source>
        <translation>提示词模板文件</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Items to judge</source>
        <translation>要评判的条目</translation>
    </message>
    <message>
        <source>every query (or IDs separated by commas)</source>
        <translation>全部查询（或以逗号分隔的编号）</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>every item</source>
        <translation>全部条目</translation>
    </message>
    <message>
        <source>Random sample of items</source>
        <translation>条目的随机样本</translation>
    </message>
    <message>
        <source>Seed of the sample and of the model</source>
        <translation>抽样与模型的随机种子</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>并发请求数</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Seconds to wait for one answer</source>
        <translation>等待单个回答的秒数</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>Ask the model about a few items and estimate the whole job; nothing is recorded</source>
        <translation>向模型询问几个条目并估算整个任务；不记录任何内容</translation>
    </message>
    <message>
        <source>The prompt the model reads</source>
        <translation>模型读到的提示词</translation>
    </message>
    <message>
        <source>Why nothing can be judged</source>
        <translation>为何无法评判</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>API key variable</source>
        <translation>API 密钥变量</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>抽样</translation>
    </message>
    <message>
        <source>The model&apos;s grades are recorded as the ratings of annotator model:&lt;name&gt;, with every answer. They never become an item&apos;s grade on their own; people grading never see them.</source>
        <translation>模型的等级记录为标注者 model:&lt;名称&gt; 的评级，每个回答都会保留。它们不会自行成为条目的等级；人工评级时也看不到它们。</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>评判</translation>
    </message>
    <message>
        <source>That looked like the key itself, not the name of a variable: it was not kept. Put the key in an environment variable and give the variable&apos;s name here.</source>
        <translation>这看起来是密钥本身，而不是变量名：它没有被保留。请把密钥放进一个环境变量，并在这里填写该变量的名称。</translation>
    </message>
    <message>
        <source>{name} is not set in this program&apos;s environment: set it before judging, or leave this field empty for a server that needs no key.</source>
        <translation>本程序的环境中未设置 {name}：请在评判前设置它；若服务器不需要密钥，请将此栏留空。</translation>
    </message>
    <message>
        <source>Connected: {endpoint} serves {count} models; choose one in the list.</source>
        <translation>已连接：{endpoint} 提供 {count} 个模型；请在列表中选择一个。</translation>
    </message>
    <message>
        <source>Connected: {endpoint} serves the model {model}.</source>
        <translation>已连接：{endpoint} 提供模型 {model}。</translation>
    </message>
    <message>
        <source>Not usable: {why}</source>
        <translation>无法使用：{why}</translation>
    </message>
    <message>
        <source>The prompt, on an item of the draft</source>
        <translation>提示词（以草稿中的一个条目为例）</translation>
    </message>
    <message>
        <source>The prompt for document {doc_id} of query {query_id}</source>
        <translation>查询 {query_id} 的文档 {doc_id} 的提示词</translation>
    </message>
    <message>
        <source>Testing {endpoint}…</source>
        <translation>正在测试 {endpoint}…</translation>
    </message>
    <message>
        <source>Estimating: asking the model about a few items…</source>
        <translation>正在估算：向模型询问几个条目…</translation>
    </message>
    <message>
        <source>Prompt template</source>
        <translation>提示词模板</translation>
    </message>
    <message>
        <source>Templates (*.txt *.md);;All files (*)</source>
        <translation>模板 (*.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{items} items to judge; {skipped} in scope already judged by this model and template.</source>
        <translation>待评判 {items} 个条目；范围内已有 {skipped} 个由此模型和模板评判过。</translation>
    </message>
    <message>
        <source>About {each} s an item: {total} for the whole job, {concurrency} at a time.</source>
        <translation>每个条目约 {each} 秒：整个任务约 {total}，每次并发 {concurrency} 个。</translation>
    </message>
    <message>
        <source>About {tokens} tokens in all.</source>
        <translation>共约 {tokens} 个词元。</translation>
    </message>
    <message>
        <source>{failed} of the {asked} answers asked gave no grade: {why}</source>
        <translation>询问的 {asked} 个回答中有 {failed} 个未给出等级：{why}</translation>
    </message>
    <message>
        <source>Each of the {asked} answers asked gave a grade.</source>
        <translation>询问的 {asked} 个回答都给出了等级。</translation>
    </message>
    <message>
        <source>&amp;Judge with a model…</source>
        <translation>用模型评判(&amp;J)…</translation>
    </message>
    <message>
        <source>{model} is judging the draft…</source>
        <translation>{model} 正在评判草稿…</translation>
    </message>
    <message>
        <source>Judged with a model</source>
        <translation>已用模型评判</translation>
    </message>
    <message>
        <source>Nothing to judge: the {count} items in scope are already judged by {model} with this template.</source>
        <translation>没有需要评判的条目：范围内的 {count} 个条目已由 {model} 用此模板评判过。</translation>
    </message>
    <message>
        <source>{model} judged {judged} items of draft v{version}: {graded} graded, {failed} without a grade (every answer is kept). {skipped} already judged were not asked again.</source>
        <translation>{model} 评判了草稿 v{version} 的 {judged} 个条目：{graded} 个给出等级，{failed} 个未给出等级（每个回答都已保留）。已评判过的 {skipped} 个没有再次询问。</translation>
    </message>
    <message>
        <source>Cancelled: judge again with the same model and template to go on.</source>
        <translation>已取消：用相同的模型和模板再次评判即可继续。</translation>
    </message>
    <message>
        <source>Stopped early: {why}</source>
        <translation>提前停止：{why}</translation>
    </message>
    <message>
        <source>First answer without a grade ({query_id}, {doc_id}): {why}</source>
        <translation>第一个未给出等级的回答（{query_id}，{doc_id}）：{why}</translation>
    </message>
    <message>
        <source>The model&apos;s grades are ratings of {model}: compare them with people&apos;s in the Agreement tab before using them.</source>
        <translation>模型的等级是 {model} 的评级：使用前请在“一致性”标签页中与人工的评级比较。</translation>
    </message>
</context>
<context>
    <name>main_window</name>
    <message>
        <source>ndcg-desktop projects (*{suffix})</source>
        <translation>ndcg-desktop 项目 (*{suffix})</translation>
    </message>
    <message>
        <source>Build and freeze graded judgment pools, then score runs against a fixed judged universe, with every evaluation choice explicit.</source>
        <translation>构建并冻结分级判断池，然后基于固定的已判断文档集为运行结果计算得分，每项评估选择都明确可见。</translation>
    </message>
    <message>
        <source>New project…</source>
        <translation>新建项目…</translation>
    </message>
    <message>
        <source>Open project…</source>
        <translation>打开项目…</translation>
    </message>
    <message>
        <source>Open demo</source>
        <translation>打开演示项目</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recent projects&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近的项目&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Projects you open or create will be listed here.</source>
        <translation>您打开或创建的项目将在此列出。</translation>
    </message>
    <message>
        <source>Every change is stored in the project file the moment you make it: there is no Save.</source>
        <translation>每项更改都会立即存入项目文件：无需保存。</translation>
    </message>
    <message>
        <source>Project views</source>
        <translation>项目视图</translation>
    </message>
    <message>
        <source>Annotate</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>一致性</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行结果对比</translation>
    </message>
    <message>
        <source>Pool version</source>
        <translation>判断池版本</translation>
    </message>
    <message>
        <source>All changes are saved as you make them</source>
        <translation>所有更改均已即时保存</translation>
    </message>
    <message>
        <source>Grading progress</source>
        <translation>评级进度</translation>
    </message>
    <message>
        <source>Saved; it takes effect the next time ndcg-desktop starts.</source>
        <translation>已保存；将在下次启动 ndcg-desktop 时生效。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>打开最近的项目(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;demo project</source>
        <translation>打开演示项目(&amp;D)</translation>
    </message>
    <message>
        <source>Import &amp;queries…</source>
        <translation>导入查询(&amp;Q)…</translation>
    </message>
    <message>
        <source>Import &amp;documents…</source>
        <translation>导入文档(&amp;D)…</translation>
    </message>
    <message>
        <source>Import &amp;judgments…</source>
        <translation>导入相关性判断(&amp;J)…</translation>
    </message>
    <message>
        <source>Import &amp;run…</source>
        <translation>导入运行结果(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Close project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Pool</source>
        <translation>判断池(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Build pool from runs…</source>
        <translation>从运行结果构建判断池(&amp;B)…</translation>
    </message>
    <message>
        <source>Add next &amp;batches (adaptive pool)</source>
        <translation>加入下一批(&amp;B)（自适应判断池）</translation>
    </message>
    <message>
        <source>&amp;Freeze draft…</source>
        <translation>冻结草稿(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;New draft from this version</source>
        <translation>从此版本新建草稿(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>高对比度</translation>
    </message>
    <message>
        <source>&amp;Annotator name…</source>
        <translation>标注者名称(&amp;A)…</translation>
    </message>
    <message>
        <source>Annotator name</source>
        <translation>标注者名称</translation>
    </message>
    <message>
        <source>Grades you give are credited to this name (NDCG_USER, when set, overrides it; inside a work file, its annotator grades). Empty: your login name. It applies to the projects you open from now on.</source>
        <translation>你给出的评级记在此名称下（设置了 NDCG_USER 时以它为准；在工作文件中，以其标注者的身份评级）。留空：使用你的登录名。对此后打开的项目生效。</translation>
    </message>
    <message>
        <source>Saved; it applies to the projects you open from now on.</source>
        <translation>已保存；对此后打开的项目生效。</translation>
    </message>
    <message>
        <source>Applies the next time ndcg-desktop starts</source>
        <translation>下次启动 ndcg-desktop 时生效</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About ndcg-desktop</source>
        <translation>关于 ndcg-desktop(&amp;A)</translation>
    </message>
    <message>
        <source> Pool version: </source>
        <translation> 判断池版本： </translation>
    </message>
    <message>
        <source>&amp;Undo {action}</source>
        <translation>撤销“{action}”(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo {action}</source>
        <translation>重做“{action}”(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation>没有最近的项目</translation>
    </message>
    <message>
        <source>Create project</source>
        <translation>创建项目</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Project in use</source>
        <translation>项目正在使用中</translation>
    </message>
    <message>
        <source>{error}

Open it read-only?</source>
        <translation>{error}

是否以只读方式打开？</translation>
    </message>
    <message>
        <source>Open read-only: nothing can be changed</source>
        <translation>以只读方式打开：无法更改任何内容</translation>
    </message>
    <message>
        <source>Checking the project file…</source>
        <translation>正在检查项目文件…</translation>
    </message>
    <message>
        <source>Grading as {name} for {project}, handed out {when}</source>
        <translation>以 {name} 的身份为 {project} 评级（{when} 分发）</translation>
    </message>
    <message>
        <source>Grading as {name}</source>
        <translation>以 {name} 的身份评级</translation>
    </message>
    <message>
        <source>v{version} · frozen · {hash}…</source>
        <translation>v{version} · 已冻结 · {hash}…</translation>
    </message>
    <message>
        <source>v{version} · draft</source>
        <translation>v{version} · 草稿</translation>
    </message>
    <message>
        <source>{project} (read-only)</source>
        <translation>{project}（只读）</translation>
    </message>
    <message>
        <source>Exported {path}</source>
        <translation>已导出 {path}</translation>
    </message>
    <message>
        <source>Exported {count} files into {folder}</source>
        <translation>已将 {count} 个文件导出到 {folder}</translation>
    </message>
    <message>
        <source>No pool yet: import judgments (File ▸ Import judgments) or build one from runs</source>
        <translation>尚无判断池：请导入相关性判断（文件 ▸ 导入相关性判断）或从运行结果构建</translation>
    </message>
    <message>
        <source>Grading as</source>
        <translation>评级身份</translation>
    </message>
    <message>
        <source>{project} — ndcg-desktop</source>
        <translation>{project} — ndcg-desktop</translation>
    </message>
    <message>
        <source>{project} — pool v{version} (frozen) — ndcg-desktop</source>
        <translation>{project} — 判断池 v{version}（已冻结）— ndcg-desktop</translation>
    </message>
    <message>
        <source>{project} — pool v{version} (draft) — ndcg-desktop</source>
        <translation>{project} — 判断池 v{version}（草稿）— ndcg-desktop</translation>
    </message>
    <message>
        <source>Sent for judging</source>
        <translation>已送交判断</translation>
    </message>
    <message>
        <source>Pool v{version}: {graded} of {total} graded ({percent}%)</source>
        <translation>判断池 v{version}：已评级 {graded}/{total} ({percent}%)</translation>
    </message>
    <message>
        <source>Pool v{version}: {graded} of {total} graded</source>
        <translation>判断池 v{version}：已评级 {graded}/{total}</translation>
    </message>
    <message>
        <source>Cancelled: the project is unchanged.</source>
        <translation>已取消：项目未更改。</translation>
    </message>
    <message>
        <source>Import queries</source>
        <translation>导入查询</translation>
    </message>
    <message>
        <source>Importing queries…</source>
        <translation>正在导入查询…</translation>
    </message>
    <message>
        <source>Imported {count} queries.</source>
        <translation>已导入 {count} 个查询。</translation>
    </message>
    <message>
        <source>Import documents</source>
        <translation>导入文档</translation>
    </message>
    <message>
        <source>Documents (*.jsonl *.csv *.tsv *.gz);;All files (*)</source>
        <translation>文档 (*.jsonl *.csv *.tsv *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Importing documents…</source>
        <translation>正在导入文档…</translation>
    </message>
    <message>
        <source>Imported {count} documents.</source>
        <translation>已导入 {count} 个文档。</translation>
    </message>
    <message>
        <source>Import judgments</source>
        <translation>导入相关性判断</translation>
    </message>
    <message>
        <source>Judgments (*.txt *.qrels *.csv *.tsv *.gz);;All files (*)</source>
        <translation>相关性判断 (*.txt *.qrels *.csv *.tsv *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Judgments imported: {graded} items graded ({added} added to the pool, of them {ungraded} ungraded; {filled} already in it graded now); {unchanged} unchanged.</source>
        <translation>已导入相关性判断：{graded} 个条目已评级（{added} 个新加入判断池，其中 {ungraded} 个未评级；{filled} 个原已在判断池中、现已评级）；{unchanged} 个未变。</translation>
    </message>
    <message>
        <source>Importing judgments…</source>
        <translation>正在导入相关性判断…</translation>
    </message>
    <message>
        <source>Queries and topics (*.tsv *.csv *.jsonl *.txt *.xml *.gz);;All files (*)</source>
        <translation>查询与主题 (*.tsv *.csv *.jsonl *.txt *.xml *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Replaced {replaced} existing topics: {ids}.</source>
        <translation>替换了 {replaced} 个已有主题：{ids}。</translation>
    </message>
    <message>
        <source>The draft already holds exactly the judgments of {name}.</source>
        <translation>草稿已与 {name} 的判断完全一致。</translation>
    </message>
    <message>
        <source>Making the draft equal to the file…</source>
        <translation>正在使草稿与文件一致…</translation>
    </message>
    <message>
        <source>Draft v{version} now holds exactly the judgments of {name}: {totals}</source>
        <translation>草稿 v{version} 现已与 {name} 的判断完全一致：{totals}</translation>
    </message>
    <message>
        <source>Comparing the file with the draft…</source>
        <translation>正在将文件与草稿比较…</translation>
    </message>
    <message>
        <source>A corrected release?</source>
        <translation>更正版发布？</translation>
    </message>
    <message>
        <source>{error}

Nothing was imported. Compare the file with the draft, to make the draft equal to it (items added, withdrawn and regraded)?</source>
        <translation>{error}

未导入任何内容。是否将文件与草稿比较，使草稿与之一致（新增、撤回和改级条目）？</translation>
    </message>
    <message>
        <source>Negative grades</source>
        <translation>负数评级</translation>
    </message>
    <message>
        <source>{error}

Import the negative grades as ungraded pool items, to be graded before freezing?</source>
        <translation>{error}

将负数评级作为未评级的判断池条目导入，冻结前再评级？</translation>
    </message>
    <message>
        <source>Import run</source>
        <translation>导入运行结果</translation>
    </message>
    <message>
        <source>Runs (*.txt *.run *.trec *.csv *.tsv *.jsonl *.gz);;All files (*)</source>
        <translation>运行结果 (*.txt *.run *.trec *.csv *.tsv *.jsonl *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Importing run…</source>
        <translation>正在导入运行结果…</translation>
    </message>
    <message>
        <source>Imported run {name}: {rows} documents for {queries} queries.</source>
        <translation>已导入运行结果 {name}：{queries} 个查询的 {rows} 个文档。</translation>
    </message>
    <message>
        <source>Adding documents to the draft pool…</source>
        <translation>正在将文档添加到草稿判断池…</translation>
    </message>
    <message>
        <source>Added {count} documents to the draft pool; they await grading.</source>
        <translation>已将 {count} 个文档添加到草稿判断池，等待评级。</translation>
    </message>
    <message>
        <source>Choosing the next batches…</source>
        <translation>正在选择下一批…</translation>
    </message>
    <message>
        <source>Added {count} documents in the next batches of {queries} queries.</source>
        <translation>已在 {queries} 个查询的下一批中加入 {count} 个文档。</translation>
    </message>
    <message>
        <source>No query&apos;s batch is graded in full yet, or every query&apos;s budget is spent: nothing was added.</source>
        <translation>尚无查询的一批已全部评级，或每个查询的预算已用完：未加入任何文档。</translation>
    </message>
    <message>
        <source>Pool frozen</source>
        <translation>判断池已冻结</translation>
    </message>
    <message>
        <source>Pool version {version} is frozen.

SHA-256:
{hash}

Scores computed against it will name this version and hash.</source>
        <translation>判断池版本 {version} 已冻结。

SHA-256：
{hash}

基于此版本计算的得分将标明该版本及其哈希值。</translation>
    </message>
    <message>
        <source>Freezing the draft…</source>
        <translation>正在冻结草稿…</translation>
    </message>
    <message>
        <source>Draft v{draft} started from v{version}.</source>
        <translation>已从 v{version} 创建草稿 v{draft}。</translation>
    </message>
    <message>
        <source>About ndcg-desktop</source>
        <translation>关于 ndcg-desktop</translation>
    </message>
    <message>
        <source>&lt;b&gt;ndcg-desktop {version}&lt;/b&gt;&lt;p&gt;Graded judgment pools that freeze, and NDCG against a fixed judged universe, with every evaluation choice explicit.&lt;/p&gt;</source>
        <translation>&lt;b&gt;ndcg-desktop {version}&lt;/b&gt;&lt;p&gt;可冻结的分级判断池，以及基于固定已判断文档集的 NDCG，每项评估选择都明确可见。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>models</name>
    <message>
        <source>frozen</source>
        <translation>已冻结</translation>
    </message>
    <message>
        <source>no pool</source>
        <translation>无判断池</translation>
    </message>
    <message>
        <source>to grade</source>
        <translation>待评级</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Graded</source>
        <translation>已评级</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>{query}: {text}
{graded} of {total} graded</source>
        <translation>{query}：{text}
已评级 {graded}/{total}</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Annotator</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Blind order</source>
        <translation>盲评顺序</translation>
    </message>
    <message>
        <source>Annotators rated this document differently: it is settled in the Adjudicate tab.</source>
        <translation>标注者对此文档的评级不同：请在“裁定”标签页中裁定。</translation>
    </message>
    <message>
        <source>awaiting adjudication</source>
        <translation>待裁定</translation>
    </message>
</context>
<context>
    <name>pace</name>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>{min} min</source>
        <translation>{min} 分钟</translation>
    </message>
    <message>
        <source>{h} h {min} min</source>
        <translation>{h} 小时 {min} 分钟</translation>
    </message>
    <message>
        <source>Judging pace</source>
        <translation>评判速度</translation>
    </message>
    <message>
        <source>Today: {graded} graded, {seconds} s each</source>
        <translation>今天：已评 {graded} 个，每个 {seconds} 秒</translation>
    </message>
    <message>
        <source>Today: {graded} graded</source>
        <translation>今天：已评 {graded} 个</translation>
    </message>
    <message>
        <source>v{version}: about {left} left</source>
        <translation>v{version}：约剩 {left}</translation>
    </message>
    <message>
        <source>{who}, {day}: {graded} graded, median {seconds} ({timed} timed)</source>
        <translation>{who}，{day}：已评 {graded} 个，中位数 {seconds}（计时 {timed} 个）</translation>
    </message>
    <message>
        <source>Draft v{version}: {ungraded} ungraded × {seconds} s ≈ {left}</source>
        <translation>草稿 v{version}：{ungraded} 个未评级 × {seconds} 秒 ≈ {left}</translation>
    </message>
    <message>
        <source>Seconds per judgment: the median gap between a person&apos;s consecutive grades; gaps over {minutes} minutes are pauses and left out. Imported grades are not timed.</source>
        <translation>每次评判的秒数：同一人相邻两次评分间隔的中位数；超过 {minutes} 分钟的间隔视为暂停，不计入。导入的评分不计时。</translation>
    </message>
</context>
<context>
    <name>passage</name>
    <message>
        <source>{chunk_id} — a passage of {parent_id}</source>
        <translation>{chunk_id} — {parent_id} 中的一段</translation>
    </message>
    <message>
        <source>The text of its document {parent_id} is not imported: the passage is shown alone.</source>
        <translation>其所属文档 {parent_id} 的正文尚未导入：仅显示该段落。</translation>
    </message>
    <message>
        <source>Neither this passage&apos;s text nor its document&apos;s ({parent_id}) is imported.</source>
        <translation>该段落及其所属文档（{parent_id}）的正文均未导入。</translation>
    </message>
    <message>
        <source>The passage judged is marked in blue inside its document.</source>
        <translation>所评判的段落在其文档中以蓝色标出。</translation>
    </message>
    <message>
        <source>The passage&apos;s text was not found in its document&apos;s text.</source>
        <translation>在所属文档的正文中未找到该段落的文本。</translation>
    </message>
    <message>
        <source>This passage&apos;s own text is not imported: its whole document is shown.</source>
        <translation>该段落本身的文本尚未导入：显示其整个文档。</translation>
    </message>
    <message>
        <source>Passages that runs returned from this document are marked in blue ({count}).</source>
        <translation>运行从该文档返回的段落以蓝色标出（{count} 段）。</translation>
    </message>
</context>
<context>
    <name>pool_editing</name>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Found in</source>
        <translation>匹配位置</translation>
    </message>
    <message>
        <source>In this pool</source>
        <translation>已在判断池中</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>text</source>
        <translation>正文</translation>
    </message>
    <message>
        <source>{doc_id} is not in the pool of {query_id}: nothing was removed.</source>
        <translation>{doc_id} 不在 {query_id} 的判断池中：没有移除任何内容。</translation>
    </message>
    <message>
        <source>Add {doc_id} to the pool of {query_id}</source>
        <translation>将 {doc_id} 添加到 {query_id} 的判断池</translation>
    </message>
    <message>
        <source>{doc_id} was not added</source>
        <translation>未添加 {doc_id}</translation>
    </message>
    <message>
        <source>Adding {doc_id} could not be undone</source>
        <translation>无法撤销添加 {doc_id}</translation>
    </message>
    <message>
        <source>Remove {doc_id} from the pool of {query_id}</source>
        <translation>从 {query_id} 的判断池中移除 {doc_id}</translation>
    </message>
    <message>
        <source>{doc_id} was not removed</source>
        <translation>未移除 {doc_id}</translation>
    </message>
    <message>
        <source>Removing {doc_id} could not be undone</source>
        <translation>无法撤销移除 {doc_id}</translation>
    </message>
    <message>
        <source>Discard draft pool v{version}</source>
        <translation>丢弃草稿判断池 v{version}</translation>
    </message>
    <message>
        <source>The draft was not discarded</source>
        <translation>草稿未被丢弃</translation>
    </message>
    <message>
        <source>Add a document to the pool</source>
        <translation>向判断池添加文档</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Document ID, or words of a title or text</source>
        <translation>文档 ID，或标题、正文中的词语</translation>
    </message>
    <message>
        <source>Document ID or search words</source>
        <translation>文档 ID 或搜索词</translation>
    </message>
    <message>
        <source>Type an ID to add it as it is, or words to search the imported documents.</source>
        <translation>输入 ID 可按原样添加，输入词语可搜索已导入的文档。</translation>
    </message>
    <message>
        <source>Search result summary</source>
        <translation>搜索结果摘要</translation>
    </message>
    <message>
        <source>Matching documents</source>
        <translation>匹配的文档</translation>
    </message>
    <message>
        <source>Documents whose ID starts with, or whose title or text contains, what you typed</source>
        <translation>ID 以所输入内容开头、或标题或正文包含所输入内容的文档</translation>
    </message>
    <message>
        <source>Add to the pool</source>
        <translation>添加到判断池</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>No imported document matches; Add puts the ID {doc_id} in as typed.</source>
        <translation>没有匹配的已导入文档；“添加”将按输入添加 ID {doc_id}。</translation>
    </message>
    <message>
        <source> (the first {limit})</source>
        <translation>（前 {limit} 个）</translation>
    </message>
    <message>
        <source>{count} documents match{more}; pick one, or Add takes the ID as typed.</source>
        <translation>{count} 个文档匹配{more}；请选择一个，或由“添加”按输入的 ID 添加。</translation>
    </message>
    <message>
        <source>&amp;Add document to this query&apos;s pool…</source>
        <translation>向该查询的判断池添加文档(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Remove ungraded item from the pool</source>
        <translation>从判断池移除未评级项(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard draft…</source>
        <translation>丢弃草稿(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Export qrels…</source>
        <translation>导出 qrels(&amp;E)…</translation>
    </message>
    <message>
        <source>Added {doc_id} to the pool of {query_id}; Ctrl+Z takes it out again.</source>
        <translation>已将 {doc_id} 添加到 {query_id} 的判断池；Ctrl+Z 可将其移除。</translation>
    </message>
    <message>
        <source>Added {doc_id} to the pool of {query_id}; its text is not imported (File ▸ Import documents).</source>
        <translation>已将 {doc_id} 添加到 {query_id} 的判断池；其正文尚未导入（文件 ▸ 导入文档）。</translation>
    </message>
    <message>
        <source>No document is selected: nothing was removed.</source>
        <translation>未选择文档：没有移除任何内容。</translation>
    </message>
    <message>
        <source>{doc_id} is graded {grade}: only an ungraded item can be removed from a pool.</source>
        <translation>{doc_id} 已评为 {grade}：只能从判断池移除未评级的项。</translation>
    </message>
    <message>
        <source>Draft pool v{version} was not brought back: {problem}. The step stays in Edit ▸ Undo.</source>
        <translation>未能恢复草稿判断池 v{version}：{problem}。此步骤仍保留在“编辑 ▸ 撤销”中。</translation>
    </message>
    <message>
        <source>New draft from pool v{version}</source>
        <translation>从判断池 v{version} 新建草稿</translation>
    </message>
    <message>
        <source>No draft was started</source>
        <translation>未创建草稿</translation>
    </message>
    <message>
        <source>Draft pool v{version} was not taken back</source>
        <translation>未能撤回草稿判断池 v{version}</translation>
    </message>
    <message>
        <source>Removed {doc_id} from the pool of {query_id}; Ctrl+Z puts it back.</source>
        <translation>已从 {query_id} 的判断池移除 {doc_id}；Ctrl+Z 可将其放回。</translation>
    </message>
    <message>
        <source>Discard draft</source>
        <translation>丢弃草稿</translation>
    </message>
    <message>
        <source>The draft pool changed since the confirmation; discard again.</source>
        <translation>确认之后草稿判断池已改变；请重新丢弃。</translation>
    </message>
    <message>
        <source>Draft pool v{version} discarded; Ctrl+Z brings it back.</source>
        <translation>已丢弃草稿判断池 v{version}；Ctrl+Z 可将其恢复。</translation>
    </message>
    <message>
        <source>Discarding the draft…</source>
        <translation>正在丢弃草稿…</translation>
    </message>
    <message>
        <source>Only a frozen pool version can be exported as qrels.</source>
        <translation>只有冻结的判断池版本才能导出为 qrels。</translation>
    </message>
    <message>
        <source>TREC qrels (*.qrels *.txt)</source>
        <translation>TREC qrels (*.qrels *.txt)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export qrels</source>
        <translation>导出 qrels</translation>
    </message>
    <message>
        <source>Wrote pool v{version} (sha256 {hash}…) to {path}, its manifest to {manifest}.</source>
        <translation>已将判断池 v{version}（sha256 {hash}…）写入 {path}，其清单写入 {manifest}。</translation>
    </message>
    <message>
        <source>Exporting qrels…</source>
        <translation>正在导出 qrels…</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>无人</translation>
    </message>
    <message>
        <source>; {count} work files handed out</source>
        <translation>；已分发的 {count} 个工作文件</translation>
    </message>
    <message>
        <source>; {count} answers given by language models</source>
        <translation>；语言模型给出的 {count} 个回答</translation>
    </message>
    <message>
        <source>; {count} records of how it was pooled (strategy, runs, order of choice)</source>
        <translation>；{count} 条判断池构建记录（策略、运行结果、选择顺序）</translation>
    </message>
    <message>
        <source>; {count} rows of {table}</source>
        <translation>；表 {table} 中的 {count} 行</translation>
    </message>
    <message>
        <source>Discard draft pool v{version}?

Deleted: its {items} items for {queries} queries, with {graded} grades and {notes} notes; {ratings} ratings (by {who}), {adjudicated} adjudications and {assignments} work-file assignments{others}. {own} items were graded or noted in this draft and exist nowhere else.

The audit log keeps a record, and Edit ▸ Undo brings all of it back while the project stays open.</source>
        <translation>丢弃草稿判断池 v{version}？

将删除：{queries} 个查询的 {items} 个项，其中 {graded} 个评分和 {notes} 条备注；{ratings} 条评分记录（评分者：{who}）、{adjudicated} 项裁定和 {assignments} 项工作文件分配{others}。其中 {own} 项是在此草稿中评分或备注的，别处没有副本。

审计日志会保留记录；在项目保持打开期间，“编辑 ▸ 撤销”可将这些全部恢复。</translation>
    </message>
</context>
<context>
    <name>pooling</name>
    <message>
        <source>Depth (top K of every run)</source>
        <translation>深度（每个运行结果的前 K 个）</translation>
    </message>
    <message>
        <source>Documents per run</source>
        <translation>每个运行结果的文档数</translation>
    </message>
    <message>
        <source>Reciprocal rank fusion</source>
        <translation>倒数排名融合</translation>
    </message>
    <message>
        <source>Rank constant k</source>
        <translation>排名常数 k</translation>
    </message>
    <message>
        <source>Rank-biased precision</source>
        <translation>排名偏置精度</translation>
    </message>
    <message>
        <source>Persistence p</source>
        <translation>持续概率 p</translation>
    </message>
    <message>
        <source>Over runs</source>
        <translation>跨运行结果</translation>
    </message>
    <message>
        <source>MaxMean (adaptive bandit)</source>
        <translation>MaxMean（自适应多臂老虎机）</translation>
    </message>
</context>
<context>
    <name>release</name>
    <message>
        <source>{added} added, {withdrawn} withdrawn, {regraded} regraded, {moved} moved to another iteration, in {queries} queries ({lines} judgments in the file).</source>
        <translation>新增 {added} 项，撤回 {withdrawn} 项，改级 {regraded} 项，{moved} 项移至另一轮次，涉及 {queries} 个查询（文件中共 {lines} 条判断）。</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Withdrawn</source>
        <translation>撤回</translation>
    </message>
    <message>
        <source>Regraded</source>
        <translation>改级</translation>
    </message>
    <message>
        <source>Iteration moved</source>
        <translation>轮次变更</translation>
    </message>
    <message>
        <source>Make the draft equal to {name}</source>
        <translation>使草稿与 {name} 一致</translation>
    </message>
    <message>
        <source>Draft v{version} becomes exactly the judgments of {name}:</source>
        <translation>草稿 v{version} 将与 {name} 的判断完全一致：</translation>
    </message>
    <message>
        <source>A new draft copying v{version} becomes exactly the judgments of {name}:</source>
        <translation>复制 v{version} 的新草稿将与 {name} 的判断完全一致：</translation>
    </message>
    <message>
        <source>A new draft becomes exactly the judgments of {name}:</source>
        <translation>新草稿将与 {name} 的判断完全一致：</translation>
    </message>
    <message>
        <source>The file&apos;s grades are credited to {source}; withdrawn items leave with their ratings. Every change is in the audit log, and Edit ▸ Undo puts every row back.</source>
        <translation>文件中的等级记在 {source} 名下；撤回的条目连同其评级一并移除。每项修改都记入审计日志，“编辑 ▸ 撤销”可恢复每一行。</translation>
    </message>
    <message>
        <source>Changes per query</source>
        <translation>每个查询的修改</translation>
    </message>
    <message>
        <source>Make the draft equal</source>
        <translation>使草稿一致</translation>
    </message>
    <message>
        <source>Make draft v{version} equal to {name}</source>
        <translation>使草稿 v{version} 与 {name} 一致</translation>
    </message>
</context>
<context>
    <name>runs</name>
    <message>
        <source>paired t-test</source>
        <translation>配对 t 检验</translation>
    </message>
    <message>
        <source>Wilcoxon signed-rank test</source>
        <translation>Wilcoxon 符号秩检验</translation>
    </message>
    <message>
        <source>randomization test (Fisher)</source>
        <translation>随机化检验（Fisher）</translation>
    </message>
    <message>
        <source>Holm correction</source>
        <translation>Holm 校正</translation>
    </message>
    <message>
        <source>Benjamini-Hochberg correction</source>
        <translation>Benjamini-Hochberg 校正</translation>
    </message>
    <message>
        <source>no correction</source>
        <translation>不校正</translation>
    </message>
    <message>
        <source>Frozen pool version</source>
        <translation>已冻结的判断池版本</translation>
    </message>
    <message>
        <source>Cut-offs K</source>
        <translation>截断位置 K</translation>
    </message>
    <message>
        <source>One or more cut-offs, separated by commas: 5,10,20</source>
        <translation>一个或多个截断位置，用逗号分隔：5,10,20</translation>
    </message>
    <message>
        <source>Paired test</source>
        <translation>配对检验</translation>
    </message>
    <message>
        <source>Correction for multiple comparisons</source>
        <translation>多重比较校正</translation>
    </message>
    <message>
        <source>Pairs compared</source>
        <translation>比较的配对</translation>
    </message>
    <message>
        <source>Check runs</source>
        <translation>检查运行结果</translation>
    </message>
    <message>
        <source>Find what each run needs decided before scoring ({keys})</source>
        <translation>找出每个运行结果在计算得分前需要决定的事项（{keys}）</translation>
    </message>
    <message>
        <source>Score and compare</source>
        <translation>计算得分并比较</translation>
    </message>
    <message>
        <source>Score every run at every K and compare them ({keys})</source>
        <translation>在每个 K 下为每个运行结果计算得分并比较（{keys}）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>CSV tables, one .xlsx workbook, Markdown and LaTeX (as ndcg compare --export)</source>
        <translation>CSV 表格、一个 .xlsx 工作簿、Markdown 和 LaTeX（与 ndcg compare --export 相同）</translation>
    </message>
    <message>
        <source>Cut-offs refused</source>
        <translation>截断位置被拒绝</translation>
    </message>
    <message>
        <source>Against</source>
        <translation>对照</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Significance</source>
        <translation>显著性</translation>
    </message>
    <message>
        <source>pairs</source>
        <translation>配对</translation>
    </message>
    <message>
        <source>all pairs</source>
        <translation>所有配对</translation>
    </message>
    <message>
        <source>each against {run}</source>
        <translation>各自与 {run} 比较</translation>
    </message>
    <message>
        <source>Each run&apos;s choices before scoring</source>
        <translation>计算得分前每个运行结果的选择</translation>
    </message>
    <message>
        <source>Runs and their choices</source>
        <translation>运行结果及其选择</translation>
    </message>
    <message>
        <source>Run (compared)</source>
        <translation>运行结果（参与比较）</translation>
    </message>
    <message>
        <source>The check found</source>
        <translation>检查发现</translation>
    </message>
    <message>
        <source>What is missing before scoring</source>
        <translation>计算得分前还缺少什么</translation>
    </message>
    <message>
        <source>For every run:</source>
        <translation>所有运行结果：</translation>
    </message>
    <message>
        <source>Apply to all runs</source>
        <translation>应用到所有运行结果</translation>
    </message>
    <message>
        <source>The same choices for every compared run, recorded for each run</source>
        <translation>为每个参与比较的运行结果做相同的选择，并分别记录</translation>
    </message>
    <message>
        <source>(leave as it is)</source>
        <translation>（保持不变）</translation>
    </message>
    <message>
        <source>{group} for every run</source>
        <translation>所有运行结果的{group}</translation>
    </message>
    <message>
        <source>{group} for {run}</source>
        <translation>{run} 的{group}</translation>
    </message>
    <message>
        <source>not checked yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <source>nothing to decide</source>
        <translation>无需决定</translation>
    </message>
    <message>
        <source>Freeze a pool version (Pool ▸ Freeze draft) to compare runs against it.</source>
        <translation>请先冻结一个判断池版本（判断池 ▸ 冻结草稿），才能以它为对照比较运行结果。</translation>
    </message>
    <message>
        <source>Tick at least two runs to compare (File ▸ Import run adds runs).</source>
        <translation>请至少勾选两个运行结果进行比较（文件 ▸ 导入运行结果可添加）。</translation>
    </message>
    <message>
        <source>Check the runs to see what each needs decided: {runs}.</source>
        <translation>检查运行结果，查看每个需要决定的事项：{runs}。</translation>
    </message>
    <message>
        <source>Before scoring: {problems}.</source>
        <translation>计算得分前：{problems}。</translation>
    </message>
    <message>
        <source>{run} needs a choice for {groups}</source>
        <translation>{run} 需要为{groups}做出选择</translation>
    </message>
    <message>
        <source>Ready to score and compare.</source>
        <translation>可以计算得分并比较。</translation>
    </message>
    <message>
        <source>Scored and compared.</source>
        <translation>已计算得分并比较。</translation>
    </message>
    <message>
        <source>unjudged: {unjudged}, duplicates: {duplicates}, unknown queries: {unknown}, queries: {queries}</source>
        <translation>未判断：{unjudged}，重复：{duplicates}，未知查询：{unknown}，查询：{queries}</translation>
    </message>
    <message>
        <source>How every figure was computed</source>
        <translation>每个数字的计算方式</translation>
    </message>
    <message>
        <source>Warnings about the comparison</source>
        <translation>关于这次比较的警告</translation>
    </message>
    <message>
        <source>Runs table</source>
        <translation>运行结果表</translation>
    </message>
    <message>
        <source>Per run and K: the mean nDCG with the letters of the runs it beats significantly, its bootstrap confidence interval, the pooled ratio, judged@K, the queries in the mean, the queries with a tie straddling K and the tie-averaged mean, and the bounds from unjudged documents</source>
        <translation>每个运行和 K：平均 nDCG 及其显著胜过的运行的字母、bootstrap 置信区间、合并比率、judged@K、计入均值的查询、并列跨越 K 的查询数与并列平均后的均值，以及未判断文档给出的界</translation>
    </message>
    <message>
        <source>K shown in the plot, the matrix and the pairs</source>
        <translation>区间图、矩阵和配对中显示的 K</translation>
    </message>
    <message>
        <source>Plot, matrix and pairs at K</source>
        <translation>区间图、矩阵和配对的 K</translation>
    </message>
    <message>
        <source>Nothing compared yet.</source>
        <translation>尚未比较。</translation>
    </message>
    <message>
        <source>Against pool v{version} (sha256 {hash}…): {settings}</source>
        <translation>对照判断池 v{version}（sha256 {hash}…）：{settings}</translation>
    </message>
    <message>
        <source>Significance and pairs</source>
        <translation>显著性与配对</translation>
    </message>
    <message>
        <source>A pair query by query</source>
        <translation>逐查询比较一对</translation>
    </message>
    <message>
        <source>Shows or hides each run&apos;s choices</source>
        <translation>显示或隐藏每个运行结果的选择</translation>
    </message>
    <message>
        <source>Each run&apos;s choices before scoring: every run resolved (show)</source>
        <translation>计算得分前每个运行结果的选择：均已决定（显示）</translation>
    </message>
    <message>
        <source>Checking the runs…</source>
        <translation>正在检查运行结果…</translation>
    </message>
    <message>
        <source>Scoring and comparing the runs…</source>
        <translation>正在计算得分并比较运行结果…</translation>
    </message>
    <message>
        <source>Export the comparison to a folder</source>
        <translation>将比较结果导出到文件夹</translation>
    </message>
    <message>
        <source>Writing the comparison…</source>
        <translation>正在写入比较结果…</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <source>{row} minus {column}: {difference}; corrected p {p}</source>
        <translation>{row} 减 {column}：{difference}；校正后 p 为 {p}</translation>
    </message>
    <message>
        <source>How significance is decided</source>
        <translation>显著性如何判定</translation>
    </message>
    <message>
        <source>Significance matrix</source>
        <translation>显著性矩阵</translation>
    </message>
    <message>
        <source>Row run against column run: the corrected p-value; a triangle marks a significant win or loss</source>
        <translation>行运行结果对列运行结果：校正后的 p 值；三角形表示显著的胜或负</translation>
    </message>
    <message>
        <source>Each pair: the mean difference with its interval, the effect size, wins/ties/losses and the tests</source>
        <translation>每一对：平均差值及其区间、效应量、胜/平/负以及各项检验</translation>
    </message>
    <message>
        <source>Significance matrix (row against column)</source>
        <translation>显著性矩阵（行对列）</translation>
    </message>
    <message>
        <source>Pairs (click one to see it query by query)</source>
        <translation>配对（点击一对以逐查询查看）</translation>
    </message>
    <message>
        <source>At K={k}: significant when the {test}&apos;s p-value after {correction} is below {alpha}; {pairs}. ▲: the row run is significantly better; ▼: worse.</source>
        <translation>K={k} 时：{test}的 p 值经{correction}后低于 {alpha} 即为显著；{pairs}。▲：行运行结果显著更好；▼：显著更差。</translation>
    </message>
    <message>
        <source>each run against {run}</source>
        <translation>每个运行结果与 {run} 比较</translation>
    </message>
    <message>
        <source>every pair of runs</source>
        <translation>所有运行结果两两比较</translation>
    </message>
    <message>
        <source>Click a pair in the significance tab to open it.</source>
        <translation>在显著性标签页中点击一对即可打开。</translation>
    </message>
    <message>
        <source>The pair compared</source>
        <translation>所比较的一对</translation>
    </message>
    <message>
        <source>The pair query by query</source>
        <translation>逐查询比较这一对</translation>
    </message>
    <message>
        <source>Each query&apos;s nDCG under both runs and the difference; select one to see both</source>
        <translation>每个查询在两个运行结果下的 nDCG 及差值；选择一个查询查看两者</translation>
    </message>
    <message>
        <source>{b} against {a} at K={k}, over the {n} queries in both means: {wins} wins, {ties} ties, {losses} losses; mean difference {difference}. Select a query to see both runs&apos; breakdowns.</source>
        <translation>K={k} 时 {b} 对 {a}，基于两者均值中都计入的 {n} 个查询：{wins} 胜、{ties} 平、{losses} 负；平均差值 {difference}。选择一个查询可并排查看两个运行结果的明细。</translation>
    </message>
    <message>
        <source>{level} bootstrap CI ({method}; {other} also given), {resamples} resamples, seed {seed}; paired {test} test on b - a rounded to {rounding}, {correction} correction, alpha {alpha}; queries needed to detect {detect} at power {power} (per pair, from its own spread)</source>
        <translation>{level} bootstrap 置信区间（{method}；另给出 {other}），{resamples} 次重抽样，种子 {seed}；配对 {test} 检验，用舍入到 {rounding} 的 b - a，{correction} 校正，alpha {alpha}；在功效 {power} 下检测出 {detect} 所需的查询数（逐对，按该对自身的离散度）</translation>
    </message>
    <message>
        <source>against {run}</source>
        <translation>与 {run} 比较</translation>
    </message>
    <message>
        <source>choices per run: {runs}</source>
        <translation>各运行结果的选择：{runs}</translation>
    </message>
    <message>
        <source>{a} vs {b} ({queries})</source>
        <translation>{a} 对 {b}（{queries}）</translation>
    </message>
    <message>
        <source>Warning: K={k}: compared over fewer than {few} queries: {pairs}; the tests have little power and the intervals are rough</source>
        <translation>警告：K={k}：比较所用的查询少于 {few} 个：{pairs}；检验的功效很低，区间也很粗略</translation>
    </message>
    <message>
        <source>Warning: K={k} {run}: mean {mean} under the tie policy ({policy}), {tie_averaged} tie-averaged: equal scores in the top K change it as the policy orders them (a tie straddles K in {ties} of the {queries} queries of its mean)</source>
        <translation>警告：K={k} {run}：按并列规则（{policy}）均值为 {mean}，并列平均后为 {tie_averaged}：前 K 位中分数相同的文档按该规则排序会改变均值（计入均值的 {queries} 个查询中有 {ties} 个的并列跨越 K）</translation>
    </message>
    <message>
        <source>Superscripts: the runs it beats significantly (paired {test} test, p-values not corrected for multiple comparisons, below alpha {alpha}, as ranx&apos;s)</source>
        <translation>上标：它显著胜过的运行（配对 {test} 检验，p 值未做多重比较校正，低于 alpha {alpha}，与 ranx 相同）</translation>
    </message>
    <message>
        <source>Superscripts: the runs it beats significantly (paired {test} test, p-values {correction}-corrected over the pairs at each K, below alpha {alpha}; ranx&apos;s look-alike superscripts are not corrected)</source>
        <translation>上标：它显著胜过的运行（配对 {test} 检验，p 值在每个 K 的各配对上做 {correction} 校正，低于 alpha {alpha}；ranx 外观相似的上标未做校正）</translation>
    </message>
</context>
<context>
    <name>tasks</name>
    <message>
        <source>unexpected error: {error}

{traceback}</source>
        <translation>意外错误：{error}

{traceback}</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>team</name>
    <message>
        <source>&amp;Assign work…</source>
        <translation>分配任务(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Merge returned work…</source>
        <translation>合并返回的任务(&amp;M)…</translation>
    </message>
    <message>
        <source>Adjudicate</source>
        <translation>裁定</translation>
    </message>
    <message>
        <source>Every item of the draft is graded: there is no work to hand out.</source>
        <translation>草稿中的每一项都已评级：没有可分配的任务。</translation>
    </message>
    <message>
        <source>Work files written</source>
        <translation>任务文件已写入</translation>
    </message>
    <message>
        <source>{count} work files for draft v{version} are in {folder}.</source>
        <translation>草稿 v{version} 的 {count} 个任务文件位于 {folder}。</translation>
    </message>
    <message>
        <source>Writing work files…</source>
        <translation>正在写入任务文件…</translation>
    </message>
    <message>
        <source>Merge returned work</source>
        <translation>合并返回的任务</translation>
    </message>
    <message>
        <source>Work files (*{suffix})</source>
        <translation>任务文件 (*{suffix})</translation>
    </message>
    <message>
        <source>Work merged</source>
        <translation>任务已合并</translation>
    </message>
    <message>
        <source>{files} merged into draft v{version}: {new} new ratings, {changed} changed, {unchanged} unchanged. {open} items rated differently wait in the Adjudicate view.</source>
        <translation>已将 {files} 合并到草稿 v{version}：新增评级 {new} 条，更改 {changed} 条，未变 {unchanged} 条。{open} 个评级不一致的条目在“裁定”视图中等待处理。</translation>
    </message>
    <message>
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <source>{count} files</source>
        <translation>{count} 个文件</translation>
    </message>
    <message>
        <source>Merging returned work…</source>
        <translation>正在合并返回的任务…</translation>
    </message>
    <message>
        <source>Import the negative grades as items without a rating, to be graded before freezing?</source>
        <translation>将负数评级作为没有评级的条目导入，在冻结前再评级？</translation>
    </message>
    <message>
        <source>Replace {name}&apos;s ratings in the draft with this file&apos;s?</source>
        <translation>用此文件的评级替换草稿中 {name} 的评级？</translation>
    </message>
    <message>
        <source>Import ratings</source>
        <translation>导入评级</translation>
    </message>
    <message>
        <source>{name}: {new} new ratings in draft v{version}, {joined} items joined the pool; {open} items rated differently wait in the Adjudicate view.</source>
        <translation>{name}：草稿 v{version} 新增评级 {new} 条，{joined} 个条目加入判断池；{open} 个评级不一致的条目在“裁定”视图中等待处理。</translation>
    </message>
    <message>
        <source>Identical ratings</source>
        <translation>评级完全相同</translation>
    </message>
    <message>
        <source>{name}&apos;s ratings equal {other}&apos;s on every one of the {items} items both rated: the same file twice, or one person under two names? The Agreement view shows the figures with and without the duplicate.</source>
        <translation>在两人都评过的全部 {items} 个条目上，{name} 的评级与 {other} 的完全相同：同一文件导入了两次，还是同一个人用了两个名字？“一致性”视图会给出包含与不包含重复者的数值。</translation>
    </message>
    <message>
        <source>Importing ratings…</source>
        <translation>正在导入评级…</translation>
    </message>
    <message>
        <source>Cancelled: nothing was written.</source>
        <translation>已取消：未写入任何内容。</translation>
    </message>
    <message>
        <source>Assign work</source>
        <translation>分配任务</translation>
    </message>
    <message>
        <source>Annotators, separated by commas</source>
        <translation>标注者，以逗号分隔</translation>
    </message>
    <message>
        <source>names separated by commas, such as ana, ben</source>
        <translation>用逗号分隔的姓名，例如 ana, ben</translation>
    </message>
    <message>
        <source>Share of queries graded by several annotators</source>
        <translation>由多名标注者评级的查询比例</translation>
    </message>
    <message>
        <source>Annotators per shared query</source>
        <translation>每个共享查询的标注者人数</translation>
    </message>
    <message>
        <source>Seed of the shuffle</source>
        <translation>打乱顺序的随机种子</translation>
    </message>
    <message>
        <source>Folder for the work files</source>
        <translation>任务文件所在文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Shared queries</source>
        <translation>共享查询</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Who grades what</source>
        <translation>谁评级哪些内容</translation>
    </message>
    <message>
        <source>Each annotator gets a work file: a project holding only their queries, the documents ungraded, in blind order, without anyone else&apos;s grades. Send it to them; merge it back when they return it.</source>
        <translation>每位标注者获得一个任务文件：一个只包含其查询的项目，文档未评级、按盲评顺序排列，不含任何他人的评级。将其发送给他们；返回后再合并回来。</translation>
    </message>
    <message>
        <source>Write work files</source>
        <translation>写入任务文件</translation>
    </message>
    <message>
        <source>Name the annotators, separated by commas.</source>
        <translation>请填写标注者姓名，用逗号分隔。</translation>
    </message>
    <message>
        <source>Choose a folder for the work files.</source>
        <translation>请为任务文件选择文件夹。</translation>
    </message>
    <message>
        <source>Median, rounded down</source>
        <translation>中位数（向下取整）</translation>
    </message>
    <message>
        <source>Majority (ties stay open)</source>
        <translation>多数（平票保持待定）</translation>
    </message>
    <message>
        <source>Lowest rating</source>
        <translation>最低评级</translation>
    </message>
    <message>
        <source>Highest rating</source>
        <translation>最高评级</translation>
    </message>
    <message>
        <source>Adjudicate {doc_id} as {grade} for {query_id}</source>
        <translation>将 {query_id} 的 {doc_id} 裁定为 {grade}</translation>
    </message>
    <message>
        <source>Adjudicate the open items by {rule}</source>
        <translation>按 {rule} 裁定待定条目</translation>
    </message>
    <message>
        <source>Cutoff of the nDCG swing</source>
        <translation>nDCG 波动的截断位置</translation>
    </message>
    <message>
        <source>Adjudication rule</source>
        <translation>裁定规则</translation>
    </message>
    <message>
        <source>Apply to the open items</source>
        <translation>应用于待定条目</translation>
    </message>
    <message>
        <source>Ordered by the nDCG swing at</source>
        <translation>按以下截断位置的 nDCG 波动排序</translation>
    </message>
    <message>
        <source>Rule:</source>
        <translation>规则：</translation>
    </message>
    <message>
        <source>Items rated differently</source>
        <translation>评级不一致的条目</translation>
    </message>
    <message>
        <source>Largest possible change of a run&apos;s per-query nDCG first</source>
        <translation>按运行结果逐查询 nDCG 的最大可能变化排序</translation>
    </message>
    <message>
        <source>Ratings, notes, topic and document</source>
        <translation>评级、备注、主题与文档</translation>
    </message>
    <message>
        <source>Adjudicated grade:</source>
        <translation>裁定等级：</translation>
    </message>
    <message>
        <source>{grade} is not a grade here: this draft&apos;s grades run from {low} to {high}.</source>
        <translation>{grade} 不是此处的等级：此草稿的等级范围为 {low} 到 {high}。</translation>
    </message>
    <message>
        <source>No draft pool: nothing to adjudicate.</source>
        <translation>没有草稿判断池：无需裁定。</translation>
    </message>
    <message>
        <source>Comparing ratings…</source>
        <translation>正在比较评级…</translation>
    </message>
    <message>
        <source>open</source>
        <translation>待定</translation>
    </message>
    <message>
        <source>pick</source>
        <translation>人工选择</translation>
    </message>
    <message>
        <source>Draft v{version}: {count} items rated differently, {open} still open.</source>
        <translation>草稿 v{version}：{count} 个条目评级不一致，{open} 个仍待定。</translation>
    </message>
    <message>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
</context>
<context>
    <name>workspace</name>
    <message>
        <source>Filter queries (Ctrl+F)</source>
        <translation>筛选查询 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Filter queries</source>
        <translation>筛选查询</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Pool version notice</source>
        <translation>判断池版本提示</translation>
    </message>
    <message>
        <source>Select a query</source>
        <translation>选择一个查询</translation>
    </message>
    <message>
        <source>Current query</source>
        <translation>当前查询</translation>
    </message>
    <message>
        <source>Topic description and narrative</source>
        <translation>主题描述与说明</translation>
    </message>
    <message>
        <source>Narrative</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Show ungraded only</source>
        <translation>仅显示未评级</translation>
    </message>
    <message>
        <source>Pool order</source>
        <translation>判断池顺序</translation>
    </message>
    <message>
        <source>Blind order</source>
        <translation>盲评顺序</translation>
    </message>
    <message>
        <source>Document ID order</source>
        <translation>文档 ID 顺序</translation>
    </message>
    <message>
        <source>Blind order hides the runs&apos; ranking, which would bias a grade: each query&apos;s pool is shuffled the same way for everyone. The order is recorded in the project.</source>
        <translation>盲评顺序隐藏运行结果的排名，以免影响评级：每个查询的判断池对所有人都以相同方式打乱。所用顺序记录在项目中。</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>判断池</translation>
    </message>
    <message>
        <source>Type a grade from {low} to {high} into the number box; Enter grades and moves on</source>
        <translation>在数字框中输入 {low} 到 {high} 之间的等级；按 Enter 评级并转到下一个</translation>
    </message>
    <message>
        <source>The pool order was not recorded: {problem}</source>
        <translation>未能记录判断池顺序：{problem}</translation>
    </message>
    <message>
        <source>More documents of {query} await grading.</source>
        <translation>{query} 还有更多文档等待评级。</translation>
    </message>
    <message>
        <source>No query has documents left to grade here; {count} await adjudication in the Adjudicate tab.</source>
        <translation>此处已没有待评级文档的查询；{count} 项在“裁定”标签页中待裁定。</translation>
    </message>
    <message>
        <source>Long document ({count} characters): query terms are marked in the first {limit} characters only.</source>
        <translation>长文档（{count} 个字符）：仅在前 {limit} 个字符中标出查询词。</translation>
    </message>
    <message>
        <source>No document is selected: nothing was graded.</source>
        <translation>未选择文档：没有进行评级。</translation>
    </message>
    <message>
        <source>Kept the grade {old} that {who} gave {doc_id}.</source>
        <translation>保留了 {who} 给 {doc_id} 的等级 {old}。</translation>
    </message>
    <message>
        <source>No query is selected: nothing was graded.</source>
        <translation>未选择查询：没有进行评级。</translation>
    </message>
    <message>
        <source>No query in the list has ungraded documents left.</source>
        <translation>列表中没有仍有未评级文档的查询。</translation>
    </message>
    <message>
        <source>No document is selected: there is no note to edit.</source>
        <translation>未选择文档：没有可编辑的备注。</translation>
    </message>
    <message>
        <source>Nothing to grade: this project has no pool yet.</source>
        <translation>没有可评级的内容：此项目还没有判断池。</translation>
    </message>
    <message>
        <source>Pool v{version} is frozen: its grades cannot change (Pool ▸ New draft from this version).</source>
        <translation>判断池 v{version} 已冻结：其等级不能更改（判断池 ▸ 从此版本新建草稿）。</translation>
    </message>
    <message>
        <source>The project is open read-only: grades cannot change.</source>
        <translation>项目以只读方式打开：等级不能更改。</translation>
    </message>
    <message>
        <source>{doc_id} awaits adjudication (annotators rated it differently): settle it in the Adjudicate tab. Nothing was graded.</source>
        <translation>{doc_id} 待裁定（标注者的评级不同）：请在“裁定”标签页中裁定。没有进行评级。</translation>
    </message>
    <message>
        <source>{grade} is not a grade here: this project&apos;s grades run from {low} to {high}.</source>
        <translation>{grade} 不是此处的等级：此项目的等级范围为 {low} 到 {high}。</translation>
    </message>
    <message>
        <source>Replace another annotator&apos;s grade?</source>
        <translation>替换其他标注者的等级？</translation>
    </message>
    <message>
        <source>{doc_id} was graded {old} by {who}. Replace that grade with your {grade}?

Both grades stay in the audit log, and Ctrl+Z undoes the change.</source>
        <translation>{doc_id} 已由 {who} 评为 {old}。要用您的等级 {grade} 替换它吗？

两个等级都会保留在审计日志中，Ctrl+Z 可撤销此更改。</translation>
    </message>
    <message>
        <source>Every document of {query} is graded; N goes to the next query to grade.</source>
        <translation>{query} 的所有文档都已评级；按 N 转到下一个待评级的查询。</translation>
    </message>
    <message>
        <source>Grades</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Note on this document (E to edit, Enter to save)</source>
        <translation>此文档的备注（按 E 编辑，按 Enter 保存）</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Document title</source>
        <translation>文档标题</translation>
    </message>
    <message>
        <source>Document text</source>
        <translation>文档文本</translation>
    </message>
    <message>
        <source>Long document notice</source>
        <translation>长文档提示</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>&lt;b&gt;Frozen:&lt;/b&gt; pool version {version} (sha256 {hash}…) is read-only. Pool ▸ New draft from this version starts the next round.</source>
        <translation>&lt;b&gt;已冻结：&lt;/b&gt;判断池版本 {version} (sha256 {hash}…) 为只读。通过“判断池 ▸ 从此版本新建草稿”开始下一轮。</translation>
    </message>
    <message>
        <source>Frozen {when} by {who}
sha256 {hash}</source>
        <translation>由 {who} 于 {when} 冻结
sha256 {hash}</translation>
    </message>
    <message>
        <source>Grade the current document {grade} ({label}); key {grade}</source>
        <translation>将当前文档评为 {grade} ({label})；按键 {grade}</translation>
    </message>
    <message>
        <source>Grade the current document {grade} ({label})</source>
        <translation>将当前文档评为 {grade} ({label})</translation>
    </message>
    <message>
        <source>Grade {grade}: {label}</source>
        <translation>等级 {grade}：{label}</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>评级</translation>
    </message>
    <message>
        <source>Type a grade from {low} to {high}, then Enter</source>
        <translation>输入 {low} 到 {high} 之间的等级，然后按 Enter</translation>
    </message>
    <message>
        <source>Grade the current document</source>
        <translation>为当前文档评级</translation>
    </message>
    <message>
        <source>Reading the queries of this pool version…</source>
        <translation>正在读取此判断池版本的查询…</translation>
    </message>
    <message>
        <source>No queries yet: import queries and judgments, or build a pool from runs.</source>
        <translation>尚无查询：请导入查询和相关性判断，或从运行结果构建判断池。</translation>
    </message>
    <message>
        <source>No pool yet: import judgments (File ▸ Import judgments) or build one from runs</source>
        <translation>尚无判断池：请导入相关性判断（文件 ▸ 导入相关性判断）或从运行结果构建</translation>
    </message>
    <message>
        <source>(no query text imported)</source>
        <translation>（未导入查询文本）</translation>
    </message>
    <message>
        <source>This document&apos;s text was not imported (File ▸ Import documents).</source>
        <translation>未导入此文档的文本（文件 ▸ 导入文档）。</translation>
    </message>
</context>
</TS>

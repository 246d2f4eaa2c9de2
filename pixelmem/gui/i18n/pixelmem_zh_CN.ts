<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>BacklinksPanel</name>
    <message numerus="yes">
        <location filename="../panels/backlinks_panel.py" line="111"/>
        <source>Linked mentions (%n)</source>
        <translation>
            <numerusform>链接提及（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/backlinks_panel.py" line="112"/>
        <source>Unlinked mentions (%n)</source>
        <translation>
            <numerusform>未链接提及（%n）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../panels/backlinks_panel.py" line="114"/>
        <source>Open a memory to see what links to it.</source>
        <translation>打开一条记忆，查看哪些记忆链接到它。</translation>
    </message>
    <message>
        <location filename="../panels/backlinks_panel.py" line="117"/>
        <source>No other memory links to this one or mentions its title.</source>
        <translation>没有其他记忆链接到这条记忆或提到它的标题。</translation>
    </message>
    <message>
        <location filename="../panels/backlinks_panel.py" line="139"/>
        <source>Link it</source>
        <translation>添加链接</translation>
    </message>
    <message>
        <location filename="../panels/backlinks_panel.py" line="140"/>
        <source>Turn these words into a [[link]] to this memory</source>
        <translation>把这段文字变成指向这条记忆的 [[链接]]</translation>
    </message>
</context>
<context>
    <name>ChatBody</name>
    <message>
        <location filename="../chat/body.py" line="102"/>
        <source>No chat model is configured — open Settings → Chat to choose one.</source>
        <translation>尚未配置聊天模型——请打开“设置 → 聊天”选择一个。</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="104"/>
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="106"/>
        <source>Pinned:</source>
        <translation>已固定：</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="106"/>
        <source>drop memories here to send them with every message</source>
        <translation>把记忆拖到这里，每条消息都会附带它们</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="108"/>
        <source>Excluded:</source>
        <translation>已排除：</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="111"/>
        <source>Ask anything. Relevant memories are added to the prompt, and every answer shows which ones.</source>
        <translation>尽管提问。相关的记忆会加入提示词，每个回答都会注明用了哪些。</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="116"/>
        <source>Ask about your memories… (Enter to send, Shift+Enter for a new line)</source>
        <translation>就你的记忆提问…（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="118"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="119"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="120"/>
        <source>Preview prompt</source>
        <translation>预览提示词</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="121"/>
        <source>See what would be sent, without sending it</source>
        <translation>查看将要发送的内容，但不发送</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="123"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../chat/body.py" line="124"/>
        <source>Start a new chat (pinned memories stay)</source>
        <translation>开始新的对话（固定的记忆会保留）</translation>
    </message>
</context>
<context>
    <name>ChatImportCounts</name>
    <message numerus="yes">
        <location filename="../chat/chat_import.py" line="35"/>
        <source>Imported %n conversations</source>
        <translation>
            <numerusform>已导入 %n 个对话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../chat/chat_import.py" line="38"/>
        <source>%n already there</source>
        <translation>
            <numerusform>%n 个已存在</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ChatPane</name>
    <message>
        <location filename="../chat/pane.py" line="146"/>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="163"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="182"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="185"/>
        <source>searching memories…</source>
        <translation>正在搜索记忆…</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="224"/>
        <source>waiting for the model…</source>
        <translation>正在等待模型…</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="255"/>
        <source>answering…</source>
        <translation>正在回答…</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="271"/>
        <source>no answer</source>
        <translation>没有回答</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="276"/>
        <source>stopped at the token limit (chat.max_tokens = {n})</source>
        <translation>已达到 token 上限（chat.max_tokens = {n}）</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="291"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="291"/>
        <source>cut off</source>
        <translation>被截断</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="305"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message numerus="yes">
        <location filename="../chat/pane.py" line="445"/>
        <source>%n memories, {chars} of {budget} context characters</source>
        <translation>
            <numerusform>%n 条记忆，上下文 {chars}/{budget} 字符</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../chat/pane.py" line="454"/>
        <source>%n earlier messages left out to fit the model&apos;s context ({tokens}).</source>
        <translation>
            <numerusform>为放入模型的上下文，省略了 %n 条较早的消息（{tokens}）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="448"/>
        <source>Sent to the model: {context}.</source>
        <translation>已发送给模型：{context}。</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="450"/>
        <source>Not sent yet. With the current pins and exclusions: {context}.</source>
        <translation>尚未发送。按当前的固定与排除设置：{context}。</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="458"/>
        <source>about {used} of {room} tokens, chat.context_window</source>
        <translation>约 {used}/{room} 个 token，chat.context_window</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="501"/>
        <source>Saved “{title}”</source>
        <translation>已保存“{title}”</translation>
    </message>
    <message>
        <location filename="../chat/pane.py" line="244"/>
        <source>thinking…</source>
        <translation>思考中…</translation>
    </message>
</context>
<context>
    <name>ChatSettingsPage</name>
    <message>
        <location filename="../dialogs/settings_chat.py" line="38"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="40"/>
        <source>OpenAI-compatible API</source>
        <translation>OpenAI 兼容 API</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="50"/>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="60"/>
        <source>Test chat model</source>
        <translation>测试聊天模型</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="74"/>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="75"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="76"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="77"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="78"/>
        <source>Context window (tokens)</source>
        <translation>上下文窗口（token）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="79"/>
        <source>Longest answer (tokens)</source>
        <translation>最长回答（token）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="80"/>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="112"/>
        <source>Asking the server for its models…</source>
        <translation>正在向服务器获取模型列表…</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="130"/>
        <source>The server lists no models.</source>
        <translation>服务器没有列出任何模型。</translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/settings_chat.py" line="132"/>
        <source>✓ %n models; “{model}” is not among them.</source>
        <translation>
            <numerusform>✓ %n 个模型；其中没有“{model}”。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/settings_chat.py" line="135"/>
        <source>✓ %n models.</source>
        <translation>
            <numerusform>✓ %n 个模型。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="143"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="159"/>
        <source>✓ {model} answered in {ms} ms</source>
        <translation>✓ {model} 在 {ms} 毫秒内回答</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_chat.py" line="174"/>
        <source>✗ Choose a provider first.</source>
        <translation>✗ 请先选择提供方。</translation>
    </message>
</context>
<context>
    <name>ChatStep</name>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="47"/>
        <source>&lt;b&gt;Chat with your memories&lt;/b&gt; (optional)</source>
        <translation>&lt;b&gt;与你的记忆对话&lt;/b&gt;（可选）</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="50"/>
        <source>pixelmem can answer questions from your memories with a chat model that you run or choose. Nothing is sent anywhere until you pick one; you can change this later in Settings.</source>
        <translation>pixelmem 可以用你自己运行或选择的聊天模型，根据你的记忆回答问题。在你选定模型之前，不会向任何地方发送内容；以后也可以在“设置”中更改。</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="58"/>
        <source>Ollama on this computer ({host})</source>
        <translation>本机上的 Ollama（{host}）</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="60"/>
        <source>An OpenAI-compatible server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="68"/>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="69"/>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="77"/>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="78"/>
        <source>Use this model</source>
        <translation>使用此模型</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="98"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="99"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="101"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="123"/>
        <source>Looking for Ollama on {url}…</source>
        <translation>正在 {url} 上查找 Ollama…</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="138"/>
        <source>✗ Enter the server&apos;s base URL first.</source>
        <translation>✗ 请先输入服务器的基础 URL。</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="141"/>
        <source>Asking the server for its models…</source>
        <translation>正在向服务器获取模型列表…</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="171"/>
        <source>No Ollama is running on {url}. Name an OpenAI-compatible server (a llama.cpp or LM Studio server, or a hosted API), or skip this step.</source>
        <translation>{url} 上没有正在运行的 Ollama。请填写一个 OpenAI 兼容服务器（llama.cpp 或 LM Studio 服务器，或托管的 API），或跳过这一步。</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="186"/>
        <source>The server answered but lists no models.</source>
        <translation>服务器有响应，但没有列出任何模型。</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="188"/>
        <source>Pull one with `{command}`, then list again.</source>
        <translation>请用 `{command}` 拉取一个模型，然后再次列出。</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run_chat.py" line="194"/>
        <source>✓ {n} models on {where}. Pick one, or skip.</source>
        <translation>✓ {where} 上有 {n} 个模型。选择一个，或跳过。</translation>
    </message>
</context>
<context>
    <name>ChipBar</name>
    <message>
        <location filename="../chat/chips.py" line="76"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <location filename="../editor/duplicate_banner.py" line="136"/>
        <source>Compare memories</source>
        <translation>比较记忆</translation>
    </message>
    <message>
        <location filename="../editor/duplicate_banner.py" line="154"/>
        <source>Open the other</source>
        <translation>打开另一条</translation>
    </message>
</context>
<context>
    <name>ConversationBar</name>
    <message>
        <location filename="../chat/conversations.py" line="48"/>
        <source>Earlier conversations (kept in the vault&apos;s .pixelmem/chats)</source>
        <translation>以前的对话（保存在知识库的 .pixelmem/chats 中）</translation>
    </message>
    <message>
        <location filename="../chat/conversations.py" line="50"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../chat/conversations.py" line="51"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../chat/conversations.py" line="52"/>
        <source>Propose memories</source>
        <translation>提取记忆</translation>
    </message>
    <message>
        <location filename="../chat/conversations.py" line="55"/>
        <source>Ask the model for facts, decisions and preferences in this conversation; they wait in the review inbox</source>
        <translation>让模型找出这段对话中的事实、决定和偏好；它们会进入审阅收件箱等待你确认</translation>
    </message>
</context>
<context>
    <name>ConversationsMixin</name>
    <message>
        <location filename="../chat/history.py" line="97"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="103"/>
        <source>stopped at the token limit</source>
        <translation>已达到 token 上限</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="104"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="105"/>
        <source>cut off</source>
        <translation>被截断</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="106"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="135"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="152"/>
        <source>Rename chat</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="152"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="165"/>
        <source>Delete chat</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../chat/history.py" line="166"/>
        <source>Delete “{name}”?</source>
        <translation>删除“{name}”？</translation>
    </message>
</context>
<context>
    <name>DuplicateBanner</name>
    <message>
        <location filename="../editor/duplicate_banner.py" line="73"/>
        <source>Compare side by side</source>
        <translation>并排比较</translation>
    </message>
    <message>
        <location filename="../editor/duplicate_banner.py" line="74"/>
        <source>Keep both</source>
        <translation>两条都保留</translation>
    </message>
    <message>
        <location filename="../editor/duplicate_banner.py" line="110"/>
        <source>Looks like «{title}» — an earlier memory says much the same.</source>
        <translation>看起来像«{title}»——之前的一条记忆说的几乎一样。</translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="51"/>
        <source>Near-duplicates</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="53"/>
        <source>Looking for memories that say the same thing…</source>
        <translation>正在查找内容相同的记忆…</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="55"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="55"/>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="59"/>
        <source>Merge…</source>
        <translation>合并…</translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/duplicates_dialog.py" line="85"/>
        <source>%n memories</source>
        <translation>
            <numerusform>%n 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/duplicates_dialog.py" line="98"/>
        <source>%n groups of near-duplicates. Double-click to open one.</source>
        <translation>
            <numerusform>%n 组近似重复。双击打开。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="100"/>
        <source>No near-duplicates found.</source>
        <translation>没有发现近似重复。</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="133"/>
        <source>Merged into «{title}».</source>
        <translation>已合并到《{title}》。</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="135"/>
        <source>Links updated in 1 memory.</source>
        <translation>已更新 1 条记忆中的链接。</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="137"/>
        <source>Links updated in {count} memories.</source>
        <translation>已更新 {count} 条记忆中的链接。</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="141"/>
        <source>Links left alone: {names}</source>
        <translation>未改动的链接：{names}</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="152"/>
        <source>Keep «{keep}» and add to it the text and topics of:

{others}

Those will be moved to the trash (they can be restored).</source>
        <translation>保留«{keep}»，并把以下记忆的正文和主题并入：

{others}

它们会被移到回收站（可以恢复）。</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="155"/>
        <source>Links to them will lead to «{keep}».</source>
        <translation>指向它们的链接将改为指向《{keep}》。</translation>
    </message>
    <message>
        <location filename="../dialogs/duplicates_dialog.py" line="156"/>
        <source>Merge memories</source>
        <translation>合并记忆</translation>
    </message>
</context>
<context>
    <name>EditorForm</name>
    <message>
        <source>An Excalidraw drawing: the preview, search and chat read the words on it. Draw and edit it in Obsidian; changing its data here can damage the drawing.</source>
        <translation>这是一张 Excalidraw 绘图：预览、搜索和聊天读取的是图上的文字。请在 Obsidian 中绘制和编辑它；在这里改动它的数据可能会损坏这张图。</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="245"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="246"/>
        <source>&amp;Topics</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="247"/>
        <source>comma, separated, topics</source>
        <translation>用逗号分隔的主题</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="248"/>
        <source>&amp;Importance</source>
        <translation>重要性(&amp;I)</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="252"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="252"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="252"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="257"/>
        <source>● Unsaved</source>
        <translation>● 未保存</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="258"/>
        <source>This memory has changes that are not saved yet</source>
        <translation>这条记忆有尚未保存的修改</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="259"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="260"/>
        <source>Show the rendered Markdown (Ctrl+E)</source>
        <translation>显示渲染后的 Markdown（Ctrl+E）</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="261"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="262"/>
        <source>Save (Ctrl+S)</source>
        <translation>保存（Ctrl+S）</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="263"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="264"/>
        <source>Move this memory to the trash (undoable)</source>
        <translation>把这条记忆移到回收站（可撤销）</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="265"/>
        <source>Write in Markdown…</source>
        <translation>用 Markdown 书写…</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="268"/>
        <source>Ctrl+click a [[link]] to open the memory it names</source>
        <translation>按住 Ctrl 单击 [[链接]]，打开它指向的记忆</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="269"/>
        <source>&amp;Aliases</source>
        <translation>别名(&amp;A)</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="270"/>
        <source>other names, comma separated</source>
        <translation>其他名称，用逗号分隔</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="271"/>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="273"/>
        <source>The note&apos;s other properties (publish, cssclasses, …) as YAML lines</source>
        <translation>笔记的其他属性（publish、cssclasses 等），以 YAML 行表示</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="277"/>
        <source>Select a memory on the left, or press Ctrl+N to write a new one.</source>
        <translation>在左侧选择一条记忆，或按 Ctrl+N 新建。</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="399"/>
        <source>New memory — not saved yet</source>
        <translation>新记忆——尚未保存</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="408"/>
        <source>updated {date}</source>
        <translation>更新于 {date}</translation>
    </message>
    <message>
        <location filename="../editor/editor_form.py" line="410"/>
        <source>created {date}</source>
        <translation>创建于 {date}</translation>
    </message>
</context>
<context>
    <name>FilterCaption</name>
    <message>
        <location filename="../widgets/filter_caption.py" line="32"/>
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
</context>
<context>
    <name>FirstRunDialog</name>
    <message>
        <location filename="../dialogs/first_run.py" line="50"/>
        <source>Welcome to pixelmem</source>
        <translation>欢迎使用 pixelmem</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="63"/>
        <source>pixelmem keeps your memories as Markdown files in a folder you own. Where should they live?</source>
        <translation>pixelmem 把你的记忆保存为你自己文件夹里的 Markdown 文件。要放在哪里？</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="68"/>
        <source>Start a new vault here</source>
        <translation>在这里新建知识库</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="71"/>
        <source>Change…</source>
        <translation>更改…</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="75"/>
        <source>Open an existing folder…</source>
        <translation>打开已有文件夹…</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="77"/>
        <source>Obsidian vaults and any folder of Markdown notes are welcome.</source>
        <translation>Obsidian 知识库或任何 Markdown 笔记文件夹都可以。</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="138"/>
        <source>New vault folder</source>
        <translation>新知识库文件夹</translation>
    </message>
    <message>
        <location filename="../dialogs/first_run.py" line="144"/>
        <source>Open a folder</source>
        <translation>打开文件夹</translation>
    </message>
</context>
<context>
    <name>FolderTree</name>
    <message>
        <location filename="../panels/folder_tree.py" line="65"/>
        <source>No folders: every memory is at the top of the vault.</source>
        <translation>没有文件夹：所有记忆都在仓库的最上层。</translation>
    </message>
    <message>
        <location filename="../panels/folder_tree.py" line="69"/>
        <source>Showing the folder {folder}</source>
        <translation>正在显示文件夹 {folder}</translation>
    </message>
    <message>
        <location filename="../panels/folder_tree.py" line="70"/>
        <source>Choose a folder to see its memories</source>
        <translation>选择一个文件夹以查看其中的记忆</translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/folder_tree.py" line="73"/>
        <source>%Ln memories in {folder}</source>
        <translation>
            <numerusform>{folder} 中有 %Ln 条记忆</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportCounts</name>
    <message numerus="yes">
        <location filename="../dialogs/import_report.py" line="55"/>
        <source>Imported %n files.</source>
        <translation>
            <numerusform>已导入 %n 个文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/import_report.py" line="59"/>
        <source>%n files were skipped (already there, or not a kind pixelmem reads).</source>
        <translation>
            <numerusform>跳过了 %n 个文件（已在库中，或 pixelmem 不支持该类型）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/import_report.py" line="63"/>
        <source>%n files could not be imported.</source>
        <translation>
            <numerusform>%n 个文件无法导入。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Importance</name>
    <message>
        <location filename="../memory_list/importance_legend.py" line="17"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../memory_list/importance_legend.py" line="18"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../memory_list/importance_legend.py" line="19"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../memory_list/importance_legend.py" line="39"/>
        <source>The dot before each title shows the memory&apos;s importance:</source>
        <translation>标题前的圆点表示记忆的重要性：</translation>
    </message>
    <message>
        <location filename="../memory_list/importance_legend.py" line="51"/>
        <source>Importance: {level}</source>
        <translation>重要性：{level}</translation>
    </message>
</context>
<context>
    <name>InboxView</name>
    <message>
        <location filename="../panels/inbox_view.py" line="135"/>
        <source>Save draft</source>
        <translation>保存草稿</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="136"/>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="137"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="128"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="128"/>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="128"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="132"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="132"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="132"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/inbox_view.py" line="193"/>
        <source>%n drafts from AI tools waiting for review</source>
        <translation>
            <numerusform>%n 份来自 AI 工具的草稿等待审阅</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="196"/>
        <source>No drafts waiting. Memories that AI tools propose over MCP appear here.</source>
        <translation>没有待审草稿。AI 工具通过 MCP 提议的记忆会显示在这里。</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="232"/>
        <source>From: {source}</source>
        <translation>来源：{source}</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="298"/>
        <source>Draft saved</source>
        <translation>草稿已保存</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="303"/>
        <source>Accepted “{title}” into the vault</source>
        <translation>已将“{title}”收入知识库</translation>
    </message>
    <message>
        <location filename="../panels/inbox_view.py" line="309"/>
        <source>Rejected “{title}” (moved to the vault&apos;s trash)</source>
        <translation>已拒绝“{title}”（已移到知识库的回收站）</translation>
    </message>
</context>
<context>
    <name>LinkCounts</name>
    <message numerus="yes">
        <location filename="../editor/link_updates.py" line="46"/>
        <source>%n links to “{old}” in other memories would no longer lead anywhere.</source>
        <translation>
            <numerusform>其他记忆中有 %n 个指向“{old}”的链接将失效。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../window/main_window.py" line="283"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="92"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="106"/>
        <source>Related</source>
        <translation>相关</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="115"/>
        <source>Backlinks</source>
        <translation>反向链接</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="146"/>
        <source>Map</source>
        <translation>地图</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="166"/>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="138"/>
        <source>Inbox</source>
        <translation>收件箱</translation>
    </message>
    <message>
        <location filename="../window/navigation.py" line="65"/>
        <source>No memory is called “{target}” yet</source>
        <translation>还没有名为“{target}”的记忆</translation>
    </message>
    <message>
        <location filename="../panels/builtin.py" line="93"/>
        <source>That text has changed; nothing was linked</source>
        <translation>这段文字已改变；没有添加链接</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="124"/>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="157"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
</context>
<context>
    <name>MapView</name>
    <message>
        <location filename="../map/map_view.py" line="149"/>
        <source>Highlight memories matching…</source>
        <translation>高亮匹配的记忆…</translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="150"/>
        <source>Tag…</source>
        <translation>添加主题…</translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="151"/>
        <source>Add a topic to the memories selected (Shift+drag)</source>
        <translation>为选中的记忆添加主题（Shift+拖动选择）</translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="152"/>
        <source>Duplicates…</source>
        <translation>重复项…</translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="156"/>
        <source>Colour by cluster</source>
        <translation>按聚类着色</translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="156"/>
        <source>Colour by topic</source>
        <translation>按主题着色</translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="223"/>
        <source>The map appears once memories are embedded.</source>
        <translation>记忆计算完向量后会显示地图。</translation>
    </message>
    <message numerus="yes">
        <location filename="../map/map_view.py" line="226"/>
        <source>%Ln memories</source>
        <translation>
            <numerusform>%Ln 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../map/map_view.py" line="227"/>
        <source>%Ln clusters</source>
        <translation>
            <numerusform>%Ln 个聚类</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="228"/>
        <source>drag to pan, wheel to zoom</source>
        <translation>拖动平移，滚轮缩放</translation>
    </message>
    <message numerus="yes">
        <location filename="../map/map_view.py" line="278"/>
        <source>Topic to add to %n memories:</source>
        <translation>
            <numerusform>要添加到 %n 条记忆的主题：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../map/map_view.py" line="277"/>
        <source>Tag memories</source>
        <translation>为记忆添加主题</translation>
    </message>
</context>
<context>
    <name>MarkdownPreview</name>
    <message>
        <location filename="../widgets/markdown_preview.py" line="120"/>
        <source>Part of this memory is not shown: {what}.</source>
        <translation>此记忆的一部分未显示：{what}。</translation>
    </message>
    <message>
        <location filename="../widgets/markdown_preview.py" line="121"/>
        <source>Show all (may be slow)</source>
        <translation>全部显示（可能较慢）</translation>
    </message>
</context>
<context>
    <name>MarkdownView</name>
    <message>
        <location filename="../chat/widgets.py" line="133"/>
        <source>Show all (may be slow)</source>
        <translation>全部显示（可能较慢）</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="172"/>
        <source>Save Selection as Memory…</source>
        <translation>将所选内容存为记忆…</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="173"/>
        <source>Save Message as Memory…</source>
        <translation>将消息存为记忆…</translation>
    </message>
</context>
<context>
    <name>MemoriesPanel</name>
    <message numerus="yes">
        <location filename="../chat/widgets.py" line="412"/>
        <source>Memories used (%n)</source>
        <translation>
            <numerusform>用到的记忆（%n）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="414"/>
        <source>No memory was relevant to this message.</source>
        <translation>没有与这条消息相关的记忆。</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="415"/>
        <source>Show prompt</source>
        <translation>显示提示词</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="416"/>
        <source>Exactly what was sent to the model</source>
        <translation>实际发送给模型的内容</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="421"/>
        <source>Not sent (over the {budget}-character budget): {names}</source>
        <translation>未发送（超出 {budget} 字符预算）：{names}</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="427"/>
        <source>Pinned but deleted: {ids}</source>
        <translation>已固定但已删除：{ids}</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="446"/>
        <source>pinned</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="446"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="447"/>
        <source>passage</source>
        <translation>片段</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="447"/>
        <source>truncated</source>
        <translation>已截断</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="455"/>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="455"/>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="456"/>
        <source>Send this memory with every message of this chat</source>
        <translation>在本次对话的每条消息中附带这条记忆</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="457"/>
        <source>Include</source>
        <translation>包含</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="457"/>
        <source>Exclude</source>
        <translation>排除</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="458"/>
        <source>Exclude from this chat</source>
        <translation>在本次对话中排除</translation>
    </message>
</context>
<context>
    <name>MemoryEditor</name>
    <message>
        <location filename="../editor/editor.py" line="161"/>
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <location filename="../editor/editor.py" line="193"/>
        <source>Not saved: the properties cannot be read ({why}).</source>
        <translation>未保存：无法读取属性（{why}）。</translation>
    </message>
    <message>
        <location filename="../editor/editor.py" line="219"/>
        <source>Saved “{title}”</source>
        <translation>已保存“{title}”</translation>
    </message>
    <message>
        <location filename="../editor/editor.py" line="295"/>
        <source>This memory was deleted. Saving creates it again.</source>
        <translation>这条记忆已被删除。保存会重新创建它。</translation>
    </message>
    <message>
        <location filename="../editor/editor.py" line="305"/>
        <source>This memory changed on disk. Saving will ask what to do.</source>
        <translation>这条记忆在磁盘上已被修改。保存时会询问如何处理。</translation>
    </message>
</context>
<context>
    <name>MemoryListModel</name>
    <message>
        <location filename="../memory_list/memory_list_model.py" line="115"/>
        <source>Also called: {names}</source>
        <translation>别名：{names}</translation>
    </message>
</context>
<context>
    <name>MemoryListPanel</name>
    <message>
        <location filename="../memory_list/memory_list.py" line="155"/>
        <source>Move to Trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="159"/>
        <source>Recently updated</source>
        <translation>最近更新</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="160"/>
        <source>Recently created</source>
        <translation>最近创建</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="161"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="162"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="167"/>
        <source>Any importance</source>
        <translation>任意重要性</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="174"/>
        <source>Order of the list</source>
        <translation>列表的排序方式</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="175"/>
        <source>Show only the memories with this topic</source>
        <translation>只显示带有此主题的记忆</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="177"/>
        <source>Show only the memories updated in this period</source>
        <translation>只显示在这段时间内更新过的记忆</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="183"/>
        <source>Any time</source>
        <translation>任意时间</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="184"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="185"/>
        <source>Past 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="186"/>
        <source>Past 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="187"/>
        <source>Past year</source>
        <translation>最近一年</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="232"/>
        <source>Without topics ({count})</source>
        <translation>无主题 ({count})</translation>
    </message>
    <message numerus="yes">
        <location filename="../memory_list/memory_list.py" line="259"/>
        <source>%Ln memories</source>
        <translation>
            <numerusform>%Ln 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../memory_list/memory_list.py" line="261"/>
        <source>{shown} of %Ln memories</source>
        <translation>
            <numerusform>{shown} / %Ln 条记忆</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="229"/>
        <source>All topics</source>
        <translation>全部主题</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="264"/>
        <source>No memory matches these filters.</source>
        <translation>没有符合筛选条件的记忆。</translation>
    </message>
    <message>
        <location filename="../memory_list/memory_list.py" line="266"/>
        <source>No memories yet.
Press Ctrl+N to write one.</source>
        <translation>还没有记忆。
按 Ctrl+N 新建一条。</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <location filename="../chat/widgets.py" line="263"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="265"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="266"/>
        <source>Copy this message as Markdown</source>
        <translation>以 Markdown 复制这条消息</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="267"/>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="268"/>
        <source>Copy one of the answer&apos;s code blocks</source>
        <translation>复制回答中的某个代码块</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="269"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="270"/>
        <source>Ask again and replace this answer</source>
        <translation>重新提问并替换这个回答</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="271"/>
        <source>Save as memory</source>
        <translation>存为记忆</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="272"/>
        <source>Save this message (or the selected text) as a memory</source>
        <translation>把这条消息（或所选文字）存为记忆</translation>
    </message>
    <message>
        <location filename="../chat/widgets.py" line="273"/>
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
</context>
<context>
    <name>PromptDialog</name>
    <message>
        <location filename="../chat/dialogs.py" line="123"/>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="130"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>PropertiesBox</name>
    <message>
        <location filename="../editor/properties.py" line="83"/>
        <source>&amp;Properties (one “name: value” per line, as YAML)</source>
        <translation>属性(&amp;P)（每行一个“名称: 值”，YAML 格式）</translation>
    </message>
    <message>
        <location filename="../editor/properties.py" line="84"/>
        <source>publish: true
description: A short summary</source>
        <translation>publish: true
description: 简短摘要</translation>
    </message>
</context>
<context>
    <name>ProposalPanel</name>
    <message>
        <location filename="../panels/proposal_view.py" line="40"/>
        <source>The memory this draft would change no longer exists.</source>
        <translation>这条草稿要修改的记忆已不存在。</translation>
    </message>
    <message>
        <location filename="../panels/proposal_view.py" line="42"/>
        <source>Accepting adds this memory and marks “{title}” superseded.</source>
        <translation>接受后添加这条记忆，并把“{title}”标为已被取代。</translation>
    </message>
    <message>
        <location filename="../panels/proposal_view.py" line="45"/>
        <source>Accepting updates “{title}” to the text below.</source>
        <translation>接受后将“{title}”更新为下方的正文。</translation>
    </message>
</context>
<context>
    <name>ProposingMixin</name>
    <message>
        <location filename="../chat/proposing.py" line="39"/>
        <source>Asking the model for memories…</source>
        <translation>正在让模型提取记忆…</translation>
    </message>
    <message>
        <location filename="../chat/proposing.py" line="60"/>
        <source>The model found nothing new to remember in this conversation</source>
        <translation>模型在这段对话中没有找到值得记住的新内容</translation>
    </message>
    <message numerus="yes">
        <location filename="../chat/proposing.py" line="58"/>
        <source>%n proposed memories wait in the review inbox</source>
        <translation>
            <numerusform>%n 条提取的记忆在审阅收件箱中等待确认</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QuickSwitcher</name>
    <message>
        <location filename="../window/quick_switcher.py" line="86"/>
        <source>Go to a memory by title, alias or file…</source>
        <translation>按标题、别名或文件名转到记忆…</translation>
    </message>
    <message>
        <location filename="../window/quick_switcher.py" line="87"/>
        <source>↑↓ to move · Enter to open · Esc to close</source>
        <translation>↑↓ 选择 · Enter 打开 · Esc 关闭</translation>
    </message>
    <message>
        <location filename="../window/quick_switcher.py" line="122"/>
        <source>(alias of {title})</source>
        <translation>（“{title}”的别名）</translation>
    </message>
    <message>
        <location filename="../window/quick_switcher.py" line="122"/>
        <source>({title})</source>
        <translation>（{title}）</translation>
    </message>
</context>
<context>
    <name>ReasoningBox</name>
    <message>
        <location filename="../chat/reasoning.py" line="56"/>
        <source>Reasoning · about {n} tokens</source>
        <translation>推理过程 · 约 {n} 个 token</translation>
    </message>
</context>
<context>
    <name>RecentVaultsMenu</name>
    <message>
        <location filename="../window/recent_menu.py" line="26"/>
        <source>Recent &amp;Vaults</source>
        <translation>最近的知识库(&amp;V)</translation>
    </message>
    <message>
        <location filename="../window/recent_menu.py" line="35"/>
        <source>No other vaults yet</source>
        <translation>还没有其他知识库</translation>
    </message>
</context>
<context>
    <name>RelatedPanel</name>
    <message>
        <location filename="../panels/related_panel.py" line="85"/>
        <source>No other memory is close enough in meaning.</source>
        <translation>没有含义足够接近的其他记忆。</translation>
    </message>
    <message>
        <location filename="../panels/related_panel.py" line="87"/>
        <source>Open a memory to see the ones closest in meaning.</source>
        <translation>打开一条记忆，即可看到语义最接近的记忆。</translation>
    </message>
    <message>
        <location filename="../panels/related_panel.py" line="76"/>
        <source>Related memories need the embedding model: {error}</source>
        <translation>相关记忆需要嵌入模型：{error}</translation>
    </message>
    <message>
        <location filename="../panels/related_panel.py" line="82"/>
        <source>Still indexing… related memories appear when the index is ready.</source>
        <translation>正在建立索引……索引就绪后会显示相关记忆。</translation>
    </message>
</context>
<context>
    <name>ResultDelegate</name>
    <message numerus="yes">
        <location filename="../panels/search_results.py" line="243"/>
        <source>%n copies</source>
        <translation>
            <numerusform>%n 份相同内容</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SaveMemoryDialog</name>
    <message>
        <location filename="../chat/dialogs.py" line="82"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="83"/>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="84"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="85"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="91"/>
        <source>Save as Memory</source>
        <translation>存为记忆</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="92"/>
        <source>comma-separated, e.g. coffee, recipes</source>
        <translation>用逗号分隔，例如：咖啡, 食谱</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="96"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="96"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="96"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../chat/dialogs.py" line="110"/>
        <source>A memory needs a title.</source>
        <translation>记忆需要一个标题。</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <location filename="../panels/search_panel.py" line="121"/>
        <source>Search memories…  (Ctrl+K)</source>
        <translation>搜索记忆…  (Ctrl+K)</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="126"/>
        <source>Hybrid</source>
        <translation>混合</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="127"/>
        <source>Semantic</source>
        <translation>语义</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="128"/>
        <source>Keyword</source>
        <translation>关键词</translation>
    </message>
    <message>
        <source>Exact phrase</source>
        <translation>精确短语</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="134"/>
        <source>Search by meaning, by keyword, both, or for an exact phrase</source>
        <translation>按语义、按关键词、两者结合，或按原文短语搜索</translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/search_panel.py" line="199"/>
        <source>%Ln results · {ms} ms</source>
        <translation>
            <numerusform>%Ln 个结果 · {ms} 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="235"/>
        <source>Still indexing… results will appear when the index is ready.</source>
        <translation>仍在建立索引…索引就绪后会显示结果。</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="236"/>
        <source>Nothing relevant to “{query}” in your memories.</source>
        <translation>记忆中没有与“{query}”相关的内容。</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="242"/>
        <source>⚠ Semantic search is unavailable: {reason}. Showing keyword matches.</source>
        <translation>⚠ 语义搜索不可用：{reason}。当前显示关键词匹配结果。</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="252"/>
        <source>Search failed: {error}</source>
        <translation>搜索失败：{error}</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="261"/>
        <source>Type to search by meaning and keyword.
Enter opens the selected result.</source>
        <translation>输入即可按语义和关键词搜索。
按 Enter 打开选中的结果。</translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="217"/>
        <source>▴ Hide weaker matches</source>
        <translation>▴ 隐藏较弱的匹配</translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/search_panel.py" line="219"/>
        <source>▾ Show %n weaker match(es)</source>
        <translation>
            <numerusform>▾ 显示 %n 个较弱的匹配</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../panels/search_panel.py" line="230"/>
        <source> · from {range} first (“{words}”)</source>
        <translation> · 优先显示 {range} 的记忆（“{words}”）</translation>
    </message>
</context>
<context>
    <name>SearchResults</name>
    <message>
        <location filename="../panels/search_results.py" line="69"/>
        <source>relevance {score}</source>
        <translation>相关度 {score}</translation>
    </message>
    <message>
        <location filename="../panels/search_results.py" line="77"/>
        <source>cosine {score}</source>
        <translation>余弦相似度 {score}</translation>
    </message>
    <message>
        <location filename="../panels/search_results.py" line="61"/>
        <source>weaker</source>
        <translation>较弱</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="68"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="71"/>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="72"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="73"/>
        <source>Embeddings</source>
        <translation>向量模型</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="74"/>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="75"/>
        <source>Reranker</source>
        <translation>重排序</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="95"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="100"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="103"/>
        <source>Vault folder</source>
        <translation>知识库文件夹</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="104"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="105"/>
        <source>A new language applies to the whole window at once.</source>
        <translation>新语言会立即应用到整个窗口。</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="111"/>
        <source>Hybrid</source>
        <translation>混合</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="112"/>
        <source>Semantic</source>
        <translation>语义</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="113"/>
        <source>Keyword</source>
        <translation>关键词</translation>
    </message>
    <message>
        <source>Exact phrase</source>
        <translation>精确短语</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="127"/>
        <source>Default mode</source>
        <translation>默认模式</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="128"/>
        <source>Results (top-k)</source>
        <translation>结果数量（top-k）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="129"/>
        <source>Minimum relevance</source>
        <translation>最低相关度</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="130"/>
        <source>Chunk size (characters)</source>
        <translation>分块大小（字符）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="131"/>
        <source>Chunk overlap</source>
        <translation>分块重叠</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="132"/>
        <source>Changing the chunking re-indexes the vault.</source>
        <translation>修改分块设置会重新索引整个知识库。</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="138"/>
        <source>Built-in, chosen for this vault (recommended)</source>
        <translation>内置，为此知识库自动选择（推荐）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="139"/>
        <source>Built-in (offline, English)</source>
        <translation>内置（离线，英文）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="140"/>
        <source>Built-in multilingual (Chinese and 100 languages)</source>
        <translation>内置多语言（中文及约一百种语言）</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="142"/>
        <source>OpenAI-compatible API</source>
        <translation>OpenAI 兼容接口</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="147"/>
        <source>not needed for local servers</source>
        <translation>本地服务无需填写</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="148"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="155"/>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="156"/>
        <source>Base URL</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="157"/>
        <location filename="../dialogs/settings_dialog.py" line="176"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="158"/>
        <location filename="../dialogs/settings_dialog.py" line="177"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="161"/>
        <source>Switching the model re-embeds every memory.</source>
        <translation>切换模型会为所有记忆重新计算向量。</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="175"/>
        <source>Endpoint URL</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="178"/>
        <source>Leave the URL empty to search without a reranker.</source>
        <translation>地址留空则不使用重排序。</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="185"/>
        <source>Choose the vault folder</source>
        <translation>选择知识库文件夹</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="211"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="223"/>
        <source>✓ Connected: vectors of dimension {dim}, {ms} ms</source>
        <translation>✓ 连接成功：向量维度 {dim}，耗时 {ms} 毫秒</translation>
    </message>
    <message>
        <location filename="../dialogs/settings_dialog.py" line="261"/>
        <source>the chunk overlap ({overlap}) must be smaller than the chunk size ({size})</source>
        <translation>分块重叠（{overlap}）必须小于分块大小（{size}）</translation>
    </message>
</context>
<context>
    <name>SkippedDialog</name>
    <message>
        <location filename="../dialogs/skipped_dialog.py" line="31"/>
        <source>Skipped files</source>
        <translation>已跳过的文件</translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/skipped_dialog.py" line="35"/>
        <source>%n files in the vault could not be read as memories. They are left untouched; fix them in another editor and pixelmem picks them up.</source>
        <translation>
            <numerusform>知识库中有 %n 个文件无法作为记忆读取。它们保持原样；在其他编辑器中修复后，pixelmem 会自动读取。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../dialogs/skipped_dialog.py" line="41"/>
        <source>Every Markdown file in the vault was read. Nothing was skipped.</source>
        <translation>知识库中的所有 Markdown 文件都已读取，没有跳过任何文件。</translation>
    </message>
    <message>
        <location filename="../dialogs/skipped_dialog.py" line="45"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../dialogs/skipped_dialog.py" line="45"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../dialogs/skipped_dialog.py" line="57"/>
        <source>Show in Folder</source>
        <translation>在文件夹中显示</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <location filename="../window/status_bar.py" line="91"/>
        <source>Read Chinese notes too</source>
        <translation>也读懂中文笔记</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="134"/>
        <source>Some notes are in Chinese, Japanese or Korean, which the English model cannot read. Click to switch this vault to the multilingual model (re-embeds it).</source>
        <translation>部分笔记是中文、日文或韩文，英文模型无法理解。点击为此记忆库切换到多语言模型（将重新生成向量）。</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="72"/>
        <source>Opening vault…</source>
        <translation>正在打开知识库…</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="78"/>
        <source>Vault: {path}
Click to see the files that could not be read</source>
        <translation>知识库：{path}
点击查看无法读取的文件</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="84"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="85"/>
        <source>Restore the memory from the trash</source>
        <translation>从回收站恢复这条记忆</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="86"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="87"/>
        <source>Stop indexing; vectors computed so far are kept</source>
        <translation>停止索引；已计算的向量会保留</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="88"/>
        <source>Show the files that could not be read</source>
        <translation>显示无法读取的文件</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="98"/>
        <source>Indexing…</source>
        <translation>正在索引…</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="109"/>
        <source>Embedding {done} of {total}…</source>
        <translation>正在计算向量 {done}/{total}…</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="120"/>
        <source>Indexing cancelled</source>
        <translation>索引已取消</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="126"/>
        <source>{indexed} indexed · {skipped} skipped</source>
        <translation>已索引 {indexed} · 跳过 {skipped}</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="140"/>
        <source>⚠ Keyword search only</source>
        <translation>⚠ 仅关键词搜索</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="142"/>
        <source>Semantic search is unavailable: {reason}</source>
        <translation>语义搜索不可用：{reason}</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="152"/>
        <source>Local index</source>
        <translation>本地索引</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="154"/>
        <source>Search runs on an index in this computer&apos;s memory (search.backend)</source>
        <translation>搜索使用本机内存中的索引（search.backend）</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="157"/>
        <source>⚠ PostgreSQL unreachable</source>
        <translation>⚠ 无法连接 PostgreSQL</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="159"/>
        <source>{reason}
The local keyword index answers meanwhile.</source>
        <translation>{reason}
在此期间由本地关键词索引回答。</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="165"/>
        <source>PostgreSQL</source>
        <translation>PostgreSQL</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="167"/>
        <source>Search runs on the shared PostgreSQL index at {where}</source>
        <translation>搜索使用位于 {where} 的共享 PostgreSQL 索引</translation>
    </message>
    <message>
        <location filename="../window/status_bar.py" line="182"/>
        <source>Moved “{title}” to the trash</source>
        <translation>已将“{title}”移到回收站</translation>
    </message>
</context>
<context>
    <name>TagPane</name>
    <message>
        <location filename="../panels/tag_pane.py" line="71"/>
        <source>No tags yet. A memory&apos;s tags (its topics) show here, nested ones (a/b) as a tree.</source>
        <translation>还没有标签。记忆的标签（即主题）显示在这里，嵌套标签（a/b）显示为树。</translation>
    </message>
    <message>
        <location filename="../panels/tag_pane.py" line="76"/>
        <source>Showing #{tag}</source>
        <translation>正在显示 #{tag}</translation>
    </message>
    <message>
        <location filename="../panels/tag_pane.py" line="77"/>
        <source>Choose a tag to see its memories</source>
        <translation>选择一个标签，查看带有它的记忆</translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/tag_pane.py" line="80"/>
        <source>%Ln memories tagged #{tag}</source>
        <translation>
            <numerusform>%Ln 条记忆带有标签 #{tag}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TimelineBars</name>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="180"/>
        <source>Week of {day}: {count} memories</source>
        <translation>{day} 这一周：{count} 条记忆</translation>
    </message>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="182"/>
        <source>Week of {day}: 1 memory</source>
        <translation>{day} 这一周：1 条记忆</translation>
    </message>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="193"/>
        <source>Other topics</source>
        <translation>其他主题</translation>
    </message>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="195"/>
        <source>No topic</source>
        <translation>无主题</translation>
    </message>
</context>
<context>
    <name>TimelineStrip</name>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="260"/>
        <source>Per week, {first} to {last} · click to filter</source>
        <translation>每周记忆数，{first} 至 {last} · 点击筛选</translation>
    </message>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="270"/>
        <source>Week of {day}</source>
        <translation>{day} 这一周</translation>
    </message>
    <message>
        <location filename="../memory_list/timeline_strip.py" line="272"/>
        <source>{first} to {last}</source>
        <translation>{first} 至 {last}</translation>
    </message>
</context>
<context>
    <name>TopicSuggestions</name>
    <message>
        <location filename="../editor/topic_suggestions.py" line="48"/>
        <source>Suggested topics:</source>
        <translation>建议的主题：</translation>
    </message>
</context>
<context>
    <name>VaultSession</name>
    <message>
        <location filename="../session.py" line="380"/>
        <source>Restored “{title}”</source>
        <translation>已恢复“{title}”</translation>
    </message>
    <message>
        <location filename="../session.py" line="428"/>
        <source>{message}; left alone: {detail}</source>
        <translation>{message}；未改动：{detail}</translation>
    </message>
    <message numerus="yes">
        <location filename="../session.py" line="424"/>
        <source>Updated the links in %n memories</source>
        <translation>
            <numerusform>已更新 %n 条记忆中的链接</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../session.py" line="445"/>
        <source>Imported %Ln file(s)</source>
        <translation>
            <numerusform>已导入 %Ln 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../session.py" line="447"/>
        <source>{message}; {skipped} skipped</source>
        <translation>{message}；跳过 {skipped} 个</translation>
    </message>
    <message>
        <location filename="../session.py" line="453"/>
        <source>{message}; {failed} could not be imported: {detail}</source>
        <translation>{message}；{failed} 个无法导入：{detail}</translation>
    </message>
</context>
<context>
    <name>WindowCommands</name>
    <message>
        <location filename="../window/commands.py" line="95"/>
        <source>Import files</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <location filename="../window/commands.py" line="109"/>
        <source>Import a folder</source>
        <translation>导入文件夹</translation>
    </message>
    <message>
        <location filename="../window/commands.py" line="116"/>
        <source>Open vault folder</source>
        <translation>打开知识库文件夹</translation>
    </message>
    <message>
        <location filename="../window/commands.py" line="137"/>
        <source>About pixelmem</source>
        <translation>关于 pixelmem</translation>
    </message>
    <message>
        <location filename="../window/commands.py" line="139"/>
        <source>&lt;h3&gt;pixelmem {version}&lt;/h3&gt;&lt;p&gt;Local-first knowledge memory: Markdown files in a folder you own, searched by meaning and by keyword, offline.&lt;/p&gt;&lt;p&gt;Vault: {vault}&lt;/p&gt;</source>
        <translation>&lt;h3&gt;pixelmem {version}&lt;/h3&gt;&lt;p&gt;本地优先的知识记忆：Markdown 文件存放在你自己的文件夹里，可离线按语义和关键词搜索。&lt;/p&gt;&lt;p&gt;知识库：{vault}&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>chat_import</name>
    <message>
        <location filename="../chat/chat_import.py" line="23"/>
        <source>Import a ChatGPT or Claude export</source>
        <translation>导入 ChatGPT 或 Claude 的导出文件</translation>
    </message>
</context>
<context>
    <name>dates</name>
    <message>
        <location filename="../widgets/dates.py" line="17"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <location filename="../widgets/dates.py" line="19"/>
        <source>{n} min ago</source>
        <translation>{n} 分钟前</translation>
    </message>
    <message>
        <location filename="../widgets/dates.py" line="23"/>
        <source>{n} h ago</source>
        <translation>{n} 小时前</translation>
    </message>
    <message>
        <location filename="../widgets/dates.py" line="25"/>
        <source>yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../widgets/dates.py" line="27"/>
        <source>{n} days ago</source>
        <translation>{n} 天前</translation>
    </message>
</context>
<context>
    <name>import_reasons</name>
    <message>
        <location filename="../dialogs/import_report.py" line="19"/>
        <source>{kind} is not a supported file type (pixelmem imports {kinds})</source>
        <translation>{kind} 不是支持的文件类型（pixelmem 可导入 {kinds}）</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="22"/>
        <source>larger than {mb} MB</source>
        <translation>大于 {mb} MB</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="23"/>
        <source>cannot be read: {why}</source>
        <translation>无法读取：{why}</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="24"/>
        <source>already in the vault</source>
        <translation>已在仓库中</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="25"/>
        <source>already there (the text of “{title}”)</source>
        <translation>已存在（与“{title}”的内容相同）</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="26"/>
        <source>already there (the same file)</source>
        <translation>已存在（同一个文件）</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="27"/>
        <source>binary file, not text</source>
        <translation>二进制文件，不是文本</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="28"/>
        <source>cannot read the PDF ({why})</source>
        <translation>无法读取该 PDF（{why}）</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="29"/>
        <source>cannot read the Word file ({why})</source>
        <translation>无法读取该 Word 文件（{why}）</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="30"/>
        <source>could not be read back</source>
        <translation>写入后无法读回</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="31"/>
        <source>empty file</source>
        <translation>空文件</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="32"/>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="33"/>
        <source>not UTF-8 text; save it as UTF-8 and import again</source>
        <translation>不是 UTF-8 文本；请另存为 UTF-8 后再导入</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="34"/>
        <source>the PDF has no extractable text (a scan? run OCR first)</source>
        <translation>该 PDF 没有可提取的文字（是扫描件？请先做 OCR）</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="35"/>
        <source>the PDF is password-protected</source>
        <translation>该 PDF 受密码保护</translation>
    </message>
    <message>
        <location filename="../dialogs/import_report.py" line="36"/>
        <source>the Word file has no text</source>
        <translation>该 Word 文件没有文字</translation>
    </message>
</context>
<context>
    <name>import_report</name>
    <message>
        <location filename="../dialogs/import_report.py" line="73"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
</context>
<context>
    <name>link_updates</name>
    <message>
        <location filename="../editor/link_updates.py" line="56"/>
        <source>Update them to “{new}”?</source>
        <translation>把它们更新为“{new}”吗？</translation>
    </message>
    <message>
        <location filename="../editor/link_updates.py" line="61"/>
        <source>Update links</source>
        <translation>更新链接</translation>
    </message>
</context>
<context>
    <name>menus</name>
    <message>
        <location filename="../window/menus.py" line="53"/>
        <source>&amp;New Memory</source>
        <translation>新建记忆(&amp;N)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="57"/>
        <source>&amp;Import Files…</source>
        <translation>导入文件(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="64"/>
        <source>Import &amp;Folder…</source>
        <translation>导入文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="80"/>
        <source>&amp;Open Vault…</source>
        <translation>打开知识库(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="87"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="92"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="93"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="97"/>
        <source>Move to &amp;Trash</source>
        <translation>移到回收站(&amp;T)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="104"/>
        <source>&amp;Undo Delete</source>
        <translation>撤销删除(&amp;U)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="112"/>
        <source>&amp;Find in Memories</source>
        <translation>搜索记忆(&amp;F)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="119"/>
        <source>&amp;Quick Switcher…</source>
        <translation>快速切换(&amp;Q)…</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="124"/>
        <source>&amp;Rebuild Index</source>
        <translation>重建索引(&amp;R)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="126"/>
        <source>S&amp;kipped Files…</source>
        <translation>已跳过的文件(&amp;K)…</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="131"/>
        <source>Go to &amp;List</source>
        <translation>转到列表(&amp;L)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="138"/>
        <source>Go to &amp;Editor</source>
        <translation>转到编辑器(&amp;E)</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="99"/>
        <source>Go to &amp;Search</source>
        <translation>转到搜索(&amp;S)</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="131"/>
        <source>Focus &amp;Chat</source>
        <translation>专注聊天(&amp;C)</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="152"/>
        <source>Semantic &amp;Map</source>
        <translation>语义地图(&amp;M)</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="171"/>
        <source>F&amp;olders</source>
        <translation>文件夹(&amp;O)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="143"/>
        <source>&amp;About pixelmem</source>
        <translation>关于 pixelmem(&amp;A)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="46"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="47"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="48"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="49"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../panels/registry.py" line="162"/>
        <source>&amp;Tags</source>
        <translation>标签(&amp;T)</translation>
    </message>
    <message>
        <location filename="../window/menus.py" line="71"/>
        <source>Import &amp;Chats…</source>
        <translation>导入聊天记录(&amp;C)…</translation>
    </message>
</context>
<context>
    <name>prompts</name>
    <message>
        <location filename="../editor/prompts.py" line="16"/>
        <source>Changed on disk</source>
        <translation>文件已在磁盘上更改</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="18"/>
        <source>“{title}” was changed by another program since you opened it.</source>
        <translation>自你打开以来，“{title}”已被其他程序修改。</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="23"/>
        <source>Overwrite replaces the file with your version. Keep both saves your version as a conflict copy next to it. Reload discards your edits and shows the file as it is now.</source>
        <translation>“覆盖”会用你的版本替换该文件。“保留两者”会把你的版本另存为旁边的冲突副本。“重新载入”会放弃你的修改，显示文件当前的内容。</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="30"/>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="33"/>
        <source>Keep Both</source>
        <translation>保留两者</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="36"/>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="51"/>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="71"/>
        <source>Protected file</source>
        <translation>受保护的文件</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="72"/>
        <source>{reason}

Move it to the trash anyway?</source>
        <translation>{reason}

仍然移到回收站吗？</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="52"/>
        <source>Save your changes to “{title}”?</source>
        <translation>要保存对“{title}”的修改吗？</translation>
    </message>
    <message>
        <location filename="../editor/prompts.py" line="53"/>
        <source>Untitled</source>
        <translation>无标题</translation>
    </message>
</context>
</TS>

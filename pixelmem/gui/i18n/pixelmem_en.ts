<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>BacklinksPanel</name>
    <message numerus="yes">
        <location filename="../panels/backlinks_panel.py" line="111"/>
        <source>Linked mentions (%n)</source>
        <translation>
            <numerusform>Linked mentions (%n)</numerusform>
            <numerusform>Linked mentions (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/backlinks_panel.py" line="112"/>
        <source>Unlinked mentions (%n)</source>
        <translation>
            <numerusform>Unlinked mentions (%n)</numerusform>
            <numerusform>Unlinked mentions (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ChatImportCounts</name>
    <message numerus="yes">
        <location filename="../chat/chat_import.py" line="35"/>
        <source>Imported %n conversations</source>
        <translation>
            <numerusform>Imported %n conversation</numerusform>
            <numerusform>Imported %n conversations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../chat/chat_import.py" line="38"/>
        <source>%n already there</source>
        <translation>
            <numerusform>%n already there</numerusform>
            <numerusform>%n already there</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ChatPane</name>
    <message numerus="yes">
        <location filename="../chat/pane.py" line="445"/>
        <source>%n memories, {chars} of {budget} context characters</source>
        <translation>
            <numerusform>%n memory, {chars} of {budget} context characters</numerusform>
            <numerusform>%n memories, {chars} of {budget} context characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../chat/pane.py" line="454"/>
        <source>%n earlier messages left out to fit the model&apos;s context ({tokens}).</source>
        <translation>
            <numerusform>%n earlier message left out to fit the model&apos;s context ({tokens}).</numerusform>
            <numerusform>%n earlier messages left out to fit the model&apos;s context ({tokens}).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ChatSettingsPage</name>
    <message numerus="yes">
        <location filename="../dialogs/settings_chat.py" line="132"/>
        <source>✓ %n models; “{model}” is not among them.</source>
        <translation>
            <numerusform>✓ %n model; “{model}” is not among them.</numerusform>
            <numerusform>✓ %n models; “{model}” is not among them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/settings_chat.py" line="135"/>
        <source>✓ %n models.</source>
        <translation>
            <numerusform>✓ %n model.</numerusform>
            <numerusform>✓ %n models.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message numerus="yes">
        <location filename="../dialogs/duplicates_dialog.py" line="85"/>
        <source>%n memories</source>
        <translation>
            <numerusform>%n memory</numerusform>
            <numerusform>%n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/duplicates_dialog.py" line="98"/>
        <source>%n groups of near-duplicates. Double-click to open one.</source>
        <translation>
            <numerusform>%n group of near-duplicates. Double-click to open it.</numerusform>
            <numerusform>%n groups of near-duplicates. Double-click to open one.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FolderTree</name>
    <message numerus="yes">
        <location filename="../panels/folder_tree.py" line="73"/>
        <source>%Ln memories in {folder}</source>
        <translation>
            <numerusform>%Ln memory in {folder}</numerusform>
            <numerusform>%Ln memories in {folder}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportCounts</name>
    <message numerus="yes">
        <location filename="../dialogs/import_report.py" line="55"/>
        <source>Imported %n files.</source>
        <translation>
            <numerusform>Imported %n file.</numerusform>
            <numerusform>Imported %n files.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/import_report.py" line="59"/>
        <source>%n files were skipped (already there, or not a kind pixelmem reads).</source>
        <translation>
            <numerusform>%n file was skipped (already there, or not a kind pixelmem reads).</numerusform>
            <numerusform>%n files were skipped (already there, or not a kind pixelmem reads).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../dialogs/import_report.py" line="63"/>
        <source>%n files could not be imported.</source>
        <translation>
            <numerusform>%n file could not be imported.</numerusform>
            <numerusform>%n files could not be imported.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>InboxView</name>
    <message numerus="yes">
        <location filename="../panels/inbox_view.py" line="193"/>
        <source>%n drafts from AI tools waiting for review</source>
        <translation>
            <numerusform>%n draft from AI tools waiting for review</numerusform>
            <numerusform>%n drafts from AI tools waiting for review</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LinkCounts</name>
    <message numerus="yes">
        <location filename="../editor/link_updates.py" line="46"/>
        <source>%n links to “{old}” in other memories would no longer lead anywhere.</source>
        <translation>
            <numerusform>%n link to “{old}” in another memory would no longer lead anywhere.</numerusform>
            <numerusform>%n links to “{old}” in other memories would no longer lead anywhere.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MapView</name>
    <message numerus="yes">
        <location filename="../map/map_view.py" line="226"/>
        <source>%Ln memories</source>
        <translation>
            <numerusform>%Ln memory</numerusform>
            <numerusform>%Ln memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../map/map_view.py" line="227"/>
        <source>%Ln clusters</source>
        <translation>
            <numerusform>%Ln cluster</numerusform>
            <numerusform>%Ln clusters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../map/map_view.py" line="278"/>
        <source>Topic to add to %n memories:</source>
        <translation>
            <numerusform>Topic to add to %n memory:</numerusform>
            <numerusform>Topic to add to %n memories:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoriesPanel</name>
    <message numerus="yes">
        <location filename="../chat/widgets.py" line="412"/>
        <source>Memories used (%n)</source>
        <translation>
            <numerusform>Memories used (%n)</numerusform>
            <numerusform>Memories used (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryListPanel</name>
    <message numerus="yes">
        <location filename="../memory_list/memory_list.py" line="259"/>
        <source>%Ln memories</source>
        <translation>
            <numerusform>%Ln memory</numerusform>
            <numerusform>%Ln memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../memory_list/memory_list.py" line="261"/>
        <source>{shown} of %Ln memories</source>
        <translation>
            <numerusform>{shown} of %Ln memory</numerusform>
            <numerusform>{shown} of %Ln memories</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProposingMixin</name>
    <message numerus="yes">
        <location filename="../chat/proposing.py" line="58"/>
        <source>%n proposed memories wait in the review inbox</source>
        <translation>
            <numerusform>%n proposed memory waits in the review inbox</numerusform>
            <numerusform>%n proposed memories wait in the review inbox</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResultDelegate</name>
    <message numerus="yes">
        <location filename="../panels/search_results.py" line="243"/>
        <source>%n copies</source>
        <translation>
            <numerusform>%n copy</numerusform>
            <numerusform>%n copies</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message numerus="yes">
        <location filename="../panels/search_panel.py" line="199"/>
        <source>%Ln results · {ms} ms</source>
        <translation>
            <numerusform>%Ln result · {ms} ms</numerusform>
            <numerusform>%Ln results · {ms} ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../panels/search_panel.py" line="219"/>
        <source>▾ Show %n weaker match(es)</source>
        <translation>
            <numerusform>▾ Show %n weaker match</numerusform>
            <numerusform>▾ Show %n weaker matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SkippedDialog</name>
    <message numerus="yes">
        <location filename="../dialogs/skipped_dialog.py" line="35"/>
        <source>%n files in the vault could not be read as memories. They are left untouched; fix them in another editor and pixelmem picks them up.</source>
        <translation>
            <numerusform>%n file in the vault could not be read as a memory. It is left untouched; fix it in another editor and pixelmem picks it up.</numerusform>
            <numerusform>%n files in the vault could not be read as memories. They are left untouched; fix them in another editor and pixelmem picks them up.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TagPane</name>
    <message numerus="yes">
        <location filename="../panels/tag_pane.py" line="80"/>
        <source>%Ln memories tagged #{tag}</source>
        <translation>
            <numerusform>%Ln memory tagged #{tag}</numerusform>
            <numerusform>%Ln memories tagged #{tag}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VaultSession</name>
    <message numerus="yes">
        <location filename="../session.py" line="424"/>
        <source>Updated the links in %n memories</source>
        <translation>
            <numerusform>Updated the links in %n memory</numerusform>
            <numerusform>Updated the links in %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../session.py" line="445"/>
        <source>Imported %Ln file(s)</source>
        <translation>
            <numerusform>Imported %Ln file</numerusform>
            <numerusform>Imported %Ln files</numerusform>
        </translation>
    </message>
</context>
</TS>

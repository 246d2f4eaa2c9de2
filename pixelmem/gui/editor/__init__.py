"""The memory editor in the middle of the window, and what sits above it.

editor (open, edit, save, conflicts), editor_form (its widgets), markdown_highlighter,
wiki_link_clicks, prompts (the questions it asks), duplicate_banner, topic_suggestions,
link_updates (the offer after a rename). May import widgets and the foundation only.
"""

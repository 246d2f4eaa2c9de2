"""The memory list column: the list, its model and filters, its rows, the timeline.

memory_list (the panel), memory_list_model (rows kept sorted, the filter proxy),
memory_delegate (painting a row), importance_legend, timeline_strip (the strip above the list).
May import widgets and the foundation only.
"""

"""The semantic map pane: every memory as a point, by cluster or topic.

map_view (the pane), map_canvas (the QGraphicsView), map_paint (drawing; also used headless by
``pixelmem map --png``). May import dialogs (duplicates), widgets and the foundation.
"""

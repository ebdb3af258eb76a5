"""``minitorch.viz``: see the graph that autograd records, and watch backward run over it.

* :func:`draw_graph` draws the backward graph of some tensors (SVG in Jupyter, text without
  Graphviz);
* :func:`step_backward` is a widget that steps through a real backward pass, node by node;
* :func:`record_forward_graph` is a widget that replays a forward pass, op by op, as the graph
  is recorded;
* :class:`track_modules` records which ``nn.Module`` made which node, to group them.

Importing this package imports neither ``graphviz`` nor ``ipywidgets``: the widgets import
``ipywidgets`` when they are made, and pictures call Graphviz's ``dot`` program when drawn.
"""

from minitorch.viz._dot import BINDER_URL, INSTALL_HINT, dot_available
from minitorch.viz.drawing import GraphDrawing, draw_graph
from minitorch.viz.forward import ForwardRecording, record_forward_graph
from minitorch.viz.modules import track_modules
from minitorch.viz.stepper import BackwardStepper, step_backward

__all__ = [
    "BINDER_URL", "INSTALL_HINT", "BackwardStepper", "ForwardRecording", "GraphDrawing",
    "dot_available", "draw_graph", "record_forward_graph", "step_backward", "track_modules",
]

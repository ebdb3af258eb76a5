"""``minitorch.optim``: update rules that turn gradients into better weights.

Example:
    >>> import minitorch
    >>> from minitorch import nn, optim
    >>> model = nn.Linear(3, 1)
    >>> optimizer = optim.Adam(model.parameters(), lr=0.01)
    >>> for _ in range(3):
    ...     optimizer.zero_grad()
    ...     loss = model(minitorch.ones(8, 3)).pow(2).mean()
    ...     loss.backward()
    ...     optimizer.step()
"""

from minitorch.optim import lr_scheduler
from minitorch.optim.adadelta import Adadelta
from minitorch.optim.adagrad import Adagrad
from minitorch.optim.adam import Adam, AdamW
from minitorch.optim.adamax import Adamax
from minitorch.optim.asgd import ASGD
from minitorch.optim.lbfgs import LBFGS
from minitorch.optim.nadam import NAdam
from minitorch.optim.optimizer import Optimizer
from minitorch.optim.radam import RAdam
from minitorch.optim.rmsprop import RMSprop
from minitorch.optim.rprop import Rprop
from minitorch.optim.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "NAdam",
           "RAdam", "Adamax", "Rprop", "ASGD", "LBFGS", "lr_scheduler"]

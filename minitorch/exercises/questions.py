"""The quiz questions of every chapter, and :func:`quiz_for` to show one in a notebook.

Each chapter's list is in the order its notebook shows the questions. Common misconceptions
(``x.requires_grid(false)``, "autograd.Parameter implements forward and backward", "backward
propagation starts with the input") appear as wrong options, each with the reason.

Example:
    >>> quiz = quiz_for(3, 2)        # chapter 03, third question: which tensors get a .grad?
    >>> quiz.select("w")
    >>> quiz.check_button.click()
    >>> quiz.correct
    True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .quiz import Quiz

__all__ = ["QUESTIONS", "Question", "quiz_for"]


_SALT = "minitorch quiz"  # part of every option's hash: changing it reshuffles every quiz


@dataclass(frozen=True)
class Question:
    """The data of one quiz question; :meth:`quiz` turns it into a :class:`Quiz` widget.

    Example:
        >>> q = Question("1 + 1?", ("1", "2"), "2", ("no", "yes"))
        >>> quiz = q.quiz()
        >>> [quiz.options[i] for i in quiz.answer]
        ['2']
    """

    question: str
    options: tuple[str, ...]
    answer: object
    explanations: tuple[str, ...]
    multi: bool = False

    def order(self) -> list[int]:
        """The order in which the options are shown: shuffled, the same on every run.

        Each option's place comes from a SHA-256 hash of the question and the option text
        (not Python's ``hash()``, which changes from one process to the next), so stored
        notebook outputs stay the same, and the right answer is not always first. The fixed
        prefix :data:`_SALT` was picked so that, across the course, no position holds more
        than about a quarter to a third of the right answers (``tests/test_exercises.py``
        guards that spread).

        Example:
            >>> q = Question("1 + 1?", ("1", "2", "3"), "2", ("no", "yes", "no"))
            >>> q.order() == q.order() and sorted(q.order()) == [0, 1, 2]
            True
        """

        def key(index: int) -> str:
            text = f"{_SALT}{self.question}\n{index}\n{self.options[index]}"
            return hashlib.sha256(text.encode("utf-8")).hexdigest()

        return sorted(range(len(self.options)), key=key)

    def answer_indices(self) -> set[int]:
        """The indices (in :attr:`options`, before shuffling) of the right options.

        Example:
            >>> Question("1 + 1?", ("1", "2"), "2", ("no", "yes")).answer_indices()
            {1}
        """
        answers = self.answer if self.multi else [self.answer]
        return {a if isinstance(a, int) else self.options.index(a) for a in answers}

    def quiz(self) -> Quiz:
        """A fresh :class:`Quiz` widget for this question, its options in :meth:`order`.

        Example:
            >>> quiz = QUESTIONS[0][0].quiz()
            >>> quiz.select("An open-source deep-learning framework, integrated with Python")
            >>> quiz.check_button.click()
            >>> quiz.correct
            True
        """
        order = self.order()
        right = self.answer_indices()
        answer = {order.index(i) for i in right}
        return Quiz(self.question, [self.options[i] for i in order],
                    answer if self.multi else answer.pop(),
                    [self.explanations[i] for i in order], self.multi)


# The worked example of chapter 03, used by several questions.
_EXAMPLE = (
    "`x = torch.ones(5)`, `y = torch.zeros(3)`, "
    "`w = torch.randn(5, 3, requires_grad=True)`, `b = torch.randn(3, requires_grad=True)`, "
    "`z = torch.matmul(x, w) + b`, "
    "`loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)`."
)

QUESTIONS: dict[int, list[Question]] = {
    # ------------------------------------------------------------ 00 Start here
    0: [
        Question(
            "What is PyTorch?",
            (
                "An open-source deep-learning framework, integrated with Python",
                "A faster NumPy with no support for derivatives",
                "A hosted cloud service that needs an account",
                "A language that compiles Python to GPU code",
            ),
            0,
            (
                "Yes: you write ordinary Python, and PyTorch supplies tensors, automatic "
                "differentiation (autograd), neural-network layers and GPU support.",
                "Its tensors look like NumPy arrays, but computing derivatives (autograd) is "
                "the heart of PyTorch, and of this course.",
                "PyTorch is a library you install with pip and run anywhere, even offline.",
                "PyTorch runs Python code as it is; its GPU support comes from its tensors.",
            ),
        ),
        Question(
            "What does `torch.autograd` do?",
            (
                "It records the operations you run on tensors and applies the chain rule "
                "backwards to compute gradients",
                "It approximates derivatives by evaluating the function at nearby points",
                "It derives a formula for the derivative, like a computer-algebra system",
                "It picks the learning rate automatically",
            ),
            0,
            (
                "Right: automatic differentiation. Each operation knows its local "
                "derivative, and `backward()` chains them together.",
                "That is the finite-difference method: slow (two evaluations per input) and "
                "imprecise. We use it only to *check* autograd.",
                "That is symbolic differentiation. Autograd never builds a formula; it works "
                "on the numbers of one particular run.",
                "The learning rate is yours to choose; autograd only computes gradients.",
            ),
        ),
        Question(
            "Which order does one step of training follow?",
            (
                "forward pass → loss → backward pass → update the parameters",
                "backward pass → forward pass → loss → update the parameters",
                "forward pass → update the parameters → loss → backward pass",
                "loss → backward pass → forward pass → update the parameters",
            ),
            0,
            (
                "Yes: guess (forward), measure the error (loss), find how each parameter "
                "affects the error (backward), then adjust the parameters (update).",
                "The backward pass needs the graph that the forward pass records, and the loss "
                "at its root, so it cannot come first.",
                "The update needs the gradients, which come from the backward pass.",
                "The loss is computed from the forward pass's output, so it cannot come first.",
            ),
        ),
        Question(
            "In backward propagation, where does the traversal of the network start?",
            (
                "At the output: the loss, the root of the graph",
                "At the input tensors",
                "At a random layer",
                "At every layer at once, in parallel",
            ),
            0,
            (
                "Right: `loss.backward()` starts at the loss (whose gradient with respect to "
                "itself is 1) and walks back towards the inputs and parameters, the leaves.",
                "A common misreading: *backward* means from the output back to the inputs, "
                "so the input is where it ends.",
                "The chain rule fixes the order: a node's gradient needs the gradients of "
                "everything computed after it.",
                "Each layer needs the gradient from the layer after it, so the layers are "
                "processed one after another, from the output back.",
            ),
        ),
        Question(
            "A check cell shows ⏳ \"not done yet\". What does that mean?",
            (
                "Your function still runs `raise NotImplementedError`",
                "Your function returned a wrong value",
                "Your function crashed with an error",
                "The check is still running",
            ),
            0,
            (
                "Yes: exercise stubs raise `NotImplementedError` until you replace that line "
                "with your code.",
                "A wrong value shows ✗ with the expected and the actual value.",
                "An error shows ✗ with the exception's type and message.",
                "Checks run instantly; ⏳ only means you have not written the code yet.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 01 Tensors
    1: [
        Question(
            "In a model, what do tensors hold?",
            ("The inputs", "The parameters (weights and biases)", "The outputs",
             "The Python code of the layers", "The gradients (`.grad`) of the parameters"),
            {0, 1, 2, 4},
            (
                "Yes: a batch of data is a tensor.",
                "Yes: weights and biases are tensors with `requires_grad=True`.",
                "Yes: predictions and the loss are tensors too.",
                "No: code lives in Python functions and modules; tensors hold numbers.",
                "Yes: after `backward()`, each parameter's `.grad` is a tensor of the "
                "parameter's shape.",
            ),
            multi=True,
        ),
        Question(
            "What is `torch.tensor(3.0, requires_grad=True)`?",
            (
                "A 0-dimensional (scalar) float tensor whose operations autograd will record",
                "A 1-dimensional tensor of length 3",
                "A tensor of three zeros",
                "An integer tensor holding 3",
            ),
            0,
            (
                "Right: its shape is `torch.Size([])`, its dtype `torch.float32`, and "
                "`requires_grad=True` asks autograd to track it.",
                "That would be `torch.zeros(3)` or `torch.tensor([a, b, c])`; "
                "`torch.tensor(3.0)` holds the single value 3.0.",
                "That is `torch.zeros(3)`: `torch.tensor` holds the data you give it.",
                "`3.0` is a float, so the dtype is `float32`; `torch.tensor(3)` would be "
                "`int64` (and integers cannot require gradients).",
            ),
        ),
        Question(
            "What is the dtype of `torch.ones(2, 3)`?",
            ("torch.float32", "torch.float64", "torch.int64", "torch.bool"),
            0,
            (
                "Right: PyTorch's (and minitorch's) default floating dtype is `float32`.",
                "That is NumPy's default (`np.ones(2).dtype` is `float64`). "
                "`torch.from_numpy` keeps `float64`, a common surprise.",
                "`int64` is the default for integer data such as `torch.tensor([1, 2])`.",
                "Booleans come from comparisons such as `x > 0`.",
            ),
        ),
        Question(
            "`a` has shape (3, 1) and `b` has shape (4,). What is the shape of `a + b`?",
            ("(3, 4)", "(3, 1)", "(4, 3)", "An error: the shapes differ"),
            0,
            (
                "Broadcasting lines shapes up from the right: (3, 1) and (1, 4) (missing "
                "dimensions count as 1); each size-1 dimension stretches, giving (3, 4).",
                "The size-1 dimension of `a` stretches to 4, so the result is larger than `a`.",
                "Shapes are aligned from the right, so `b`'s 4 goes last.",
                "Shapes need not be equal, only compatible: each pair of sizes must be equal "
                "or contain a 1.",
            ),
        ),
        Question(
            "Tensors are often called \"NumPy arrays on steroids\". What do they add to "
            "NumPy arrays?",
            (
                "Automatic differentiation (autograd)",
                "Running on a GPU",
                "Elements that can be any Python object",
                "Immutability: a tensor can never be changed",
            ),
            {0, 1},
            (
                "Yes: a tensor can record how it was computed, so gradients can flow back "
                "through it.",
                "Yes: the same code can run on a GPU (in minitorch through CuPy).",
                "No: like NumPy arrays, tensors hold numbers of one dtype.",
                "No: in-place operations such as `x.grad.zero_()` change a tensor.",
            ),
            multi=True,
        ),
    ],
    # ------------------------------------------------------------ 02 Recording the DAG
    2: [
        Question(
            "During a forward pass, autograd does two things at once. Which two?",
            (
                "Runs the operation and computes the result tensor",
                "Records the operation's gradient function in the graph (the DAG)",
                "Computes the gradients of all leaves",
                "Updates the weights",
            ),
            {0, 1},
            (
                "Yes: the forward pass computes the actual numbers.",
                "Yes: the result's `grad_fn` remembers how it was made, for later.",
                "No: that is the backward pass, which starts only when you call `backward()`.",
                "No: the optimizer updates the weights after the backward pass.",
            ),
            multi=True,
        ),
        Question(
            f"{_EXAMPLE} What does `print(z.grad_fn)` show?",
            (
                "<AddBackward0 object at 0x...>",
                "<MmBackward0 object at 0x...>",
                "None",
                "<BinaryCrossEntropyWithLogitsBackward0 object at 0x...>",
            ),
            0,
            (
                "Right: `grad_fn` is the node of the *last* operation that made `z`, the "
                "addition `... + b`.",
                "The matrix product ran earlier; its node lies further back in the graph, "
                "reached through `z.grad_fn.next_functions`.",
                "`z` is computed from `w` and `b`, which require gradients, so `z` has a "
                "`grad_fn`. Only leaves (tensors you create) have `grad_fn = None`.",
                "That is `loss.grad_fn`: the loss is computed from `z`, after it.",
            ),
        ),
        Question(
            f"{_EXAMPLE} Which tensors are leaves (`is_leaf` is `True`)?",
            ("`w`", "`x`", "`z`", "`z.detach()`"),
            {0, 1, 3},
            (
                "Yes: you created it, so it is an input of the graph.",
                "Yes: every tensor with `requires_grad=False` is a leaf by convention.",
                "No: `z` was computed by operations, so it has a `grad_fn` and is not a leaf.",
                "Yes: `detach()` returns a new tensor with no history, so it is a leaf "
                "(with `requires_grad=False`).",
            ),
            multi=True,
        ),
        Question(
            "In autograd's graph (the DAG), what are the leaves and the roots?",
            (
                "Leaves: input tensors (data and parameters). Roots: output tensors "
                "(such as the loss).",
                "Leaves: output tensors. Roots: input tensors.",
                "Leaves: the layers. Roots: the optimizer.",
                "Leaves and roots are the same tensors",
            ),
            0,
            (
                "Right: the graph grows from the leaves to the root in the forward pass, "
                "and backward walks from the root to the leaves.",
                "It is the other way round: outputs are computed *from* the leaves.",
                "The graph's nodes are operations (`Function` objects, with an "
                "`AccumulateGrad` for each leaf tensor), not layers or optimizers.",
                "The graph is acyclic and directed, from inputs to outputs.",
            ),
        ),
        Question(
            "`def f(x): return x * 2 if x.sum() > 0 else x.exp()`. You call `f` on an input "
            "with a positive sum, then on one with a negative sum. What does autograd record?",
            (
                "One graph, built when `f` was defined, with both branches in it",
                "A `MulBackward0` graph the first time and an `ExpBackward0` graph the second "
                "time: the graph is dynamic, rebuilt by each forward pass",
                "Nothing: autograd cannot differentiate through an `if`",
                "The first graph, reused for the second call",
            ),
            1,
            (
                "That is a static graph (TensorFlow 1, JAX's jit): defined once, run many "
                "times. PyTorch records the operations as they run.",
                "Right: define-by-run. Each forward pass records exactly the operations that "
                "ran, so Python's `if` and `for` decide the graph.",
                "The `if` is plain Python; autograd only sees the tensor operations that ran.",
                "Each forward pass records a new graph; nothing is reused.",
            ),
        ),
        Question(
            "Why can a PyTorch model use an `if` or a `for` loop whose length depends on "
            "the data?",
            (
                "The graph is recorded again, from scratch, on every forward pass",
                "Autograd reads and differentiates the Python source code",
                "The model is compiled once, ahead of time, for all inputs",
                "It cannot: control flow breaks autograd",
            ),
            0,
            (
                "Right: the graph only contains the operations that actually ran this time, "
                "so each pass can take a different path. The graph is *dynamic*.",
                "Autograd never looks at source code; it records operations as they run.",
                "A graph fixed ahead of time is what a *static* framework does; then "
                "data-dependent control flow needs special operations.",
                "Control flow works because the graph is rebuilt on every pass.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 03 Backward: the chain rule
    3: [
        Question(
            "Why do we need autograd, instead of deriving gradients by hand?",
            (
                "Networks are deeply nested functions of millions of parameters: deriving "
                "and coding every derivative by hand is impractical and error-prone",
                "Derivatives computed by hand are mathematically wrong",
                "Python cannot compute derivatives without autograd",
                "Autograd makes the forward pass faster",
            ),
            0,
            (
                "Right: the chain rule is simple, but applying it by hand to every parameter "
                "of every model is not. Autograd applies it mechanically.",
                "Hand-derived derivatives are fine (we check autograd against them); they "
                "are just too much work for large models.",
                "Any language can compute derivatives; you can code them by hand, as you "
                "will later in this chapter.",
                "Recording the graph makes the forward pass slightly *slower*; that is why "
                "`no_grad` exists.",
            ),
        ),
        Question(
            "Logistic regression on one sample: `z = w*x + b`, `p = sigmoid(z)`, "
            "`L = -(y*log(p) + (1-y)*log(1-p))`. What is `dL/dz`?",
            ("`p - y`", "`p * (1 - p)`", "`(p - y) * x`", "`-y / p`"),
            0,
            (
                "Right: `dL/dp * dp/dz = (p - y) / (p(1-p)) * p(1-p) = p - y`. A famously "
                "simple result, which is why BCE-with-logits is computed from `z` directly.",
                "That is `dp/dz`, the sigmoid's derivative: only one factor of the chain.",
                "That is `dL/dw = dL/dz * dz/dw`, one step further along the chain.",
                "That is the `y` part of `dL/dp`, before multiplying by `dp/dz`.",
            ),
        ),
        Question(
            f"{_EXAMPLE} After `loss.backward()`, which tensors have a `.grad` "
            "(not `None`)?",
            ("`w`", "`y`", "`x`", "`z`"),
            {0},
            (
                "Yes: a leaf with `requires_grad=True`. (So is `b`, which is not listed.)",
                "No: `y` holds the targets; it was made with `requires_grad=False`, so "
                "backward computes no gradient for it.",
                "No: `x` is a leaf, but `requires_grad` is `False`, so no gradient is "
                "computed for it.",
                "No: `z` is an intermediate (non-leaf) tensor. Its gradient is computed on "
                "the way, but not stored, unless you call `z.retain_grad()` first.",
            ),
            multi=True,
        ),
        Question(
            "`x = torch.tensor(3.0, requires_grad=True)`, `y = x * x + x`, `y.backward()`. "
            "How does backward combine the paths from `y` to `x`?",
            (
                "It adds the gradients of all paths: `x.grad` is `2*3 + 1 = 7`",
                "The last path wins: `x.grad` is `1`",
                "It multiplies the paths: `x.grad` is `6`",
                "It raises an error because `x` is used three times",
            ),
            0,
            (
                "Right: when a tensor is used more than once, the gradients of all its uses "
                "are summed (accumulated). Forgetting this is a classic autograd bug.",
                "Overwriting instead of adding loses the other paths' gradients.",
                "Products happen *along* a path (the chain rule); *different* paths add up.",
                "Reusing a tensor is fine; its gradient just collects several contributions.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 04 The backward engine
    4: [
        Question(
            "After `loss.backward()`, when does a second `loss.backward()` fail?",
            (
                "Always: a graph can be back-propagated only once",
                "When it reaches a node whose saved tensors were freed by the first call "
                "(most graphs have such nodes: `mm`, `mul`, `exp`, ...)",
                "Never: the second call just adds to `.grad`",
                "Only when the graph contains an `AccumulateGrad` node",
            ),
            1,
            (
                "A graph of additions saves nothing and can be back-propagated again.",
                "Right: with `retain_graph=True` the saved tensors are kept.",
                "It fails as soon as it needs a freed saved tensor.",
                "`AccumulateGrad` saves nothing; the nodes that saved tensors are the problem.",
            ),
        ),
        Question(
            f"{_EXAMPLE} You call `loss.backward()`, then `loss.backward()` again, without "
            "`retain_graph=True`. What happens?",
            (
                "A RuntimeError: trying to backward through the graph a second time",
                "The gradients in `w.grad` and `b.grad` double",
                "Nothing changes: the same gradients are computed again",
                "`w.grad` and `b.grad` are reset to zero",
            ),
            0,
            (
                "Right: to save memory, backward frees the values the graph saved for it. "
                "Pass `retain_graph=True` to the first call to backward twice.",
                "That is what happens *with* `retain_graph=True`: gradients accumulate (are "
                "summed), so they double.",
                "Gradients are never just replaced: a second backward would add to `.grad`; "
                "here it cannot run at all.",
                "Backward never resets gradients; you do that with `zero_grad()`.",
            ),
        ),
        Question(
            "`a = torch.ones(3)`; then `a.add_(1)`, `a.mul_(2)`, `b = a + 1` and `a[0] = 5`. "
            "What is `a._version`?",
            ("1", "2", "4", "3"),
            3,
            (
                "Each in-place change counts: there were three.",
                "`a[0] = 5` is an in-place change too.",
                "`b = a + 1` creates a new tensor; it does not change `a`.",
                "Right: `add_`, `mul_` and the item assignment each bump the counter.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 05 Checking gradients
    5: [
        Question(
            "`x` has 1,000 elements and `y = f(x)` has 1,000 elements. What does "
            "`y.backward(gradient=v)` compute, and at what cost?",
            (
                "The 1,000 x 1,000 Jacobian, then its product with `v`",
                "The gradient of `y.sum()`, whatever `v` is",
                "One vector-Jacobian product `v^T J` (the gradient of `(v * y).sum()`), for "
                "about the cost of one forward pass, without ever forming `J`",
                "1,000 backward passes, one per output",
            ),
            2,
            (
                "Autograd never builds a Jacobian: each node computes its VJP directly.",
                "Only when `v` is all ones; `v` weights each output.",
                "Right: backward is a chain of VJPs, one per node.",
                "That is what a full Jacobian costs (one VJP per row), not one backward call.",
            ),
        ),
        Question(
            "Why is a finite-difference check a good test of a backward formula?",
            (
                "It is faster than backward",
                "It is exact, with no rounding error",
                "It works in float16 as well as float64",
                "It uses only the forward pass, so it cannot share a bug with the backward "
                "formula it checks",
            ),
            3,
            (
                "It is much slower: two forward passes per input element.",
                "It has truncation error (about eps²) and rounding error; use float64 and a "
                "tolerance.",
                "In low precision the rounding error swamps the difference; use float64.",
                "Right: an independent oracle. That is what `gradcheck` relies on.",
            ),
        ),
        Question(
            "`(g,) = torch.autograd.grad(x ** 3, x)` and then `torch.autograd.grad(g, x)` fails. "
            "What fixes it?",
            (
                "Pass `create_graph=True` to the first call, so the backward pass is recorded "
                "and `g` has a `grad_fn`",
                "Pass `retain_graph=True` to the second call",
                "Call `g.requires_grad_()` before the second call",
                "Use `x.grad` instead of `autograd.grad`",
            ),
            0,
            (
                "Right: with `create_graph=True`, `g = 3x²` is a tensor in a graph, and its "
                "derivative is `6x`.",
                "`retain_graph` keeps saved tensors; it does not record the backward pass.",
                "That makes `g` a leaf with no history: its derivative with respect to `x` is "
                "unknown (and `grad` would say `x` was not used).",
                "`.grad` holds the same first derivative, without a graph.",
            ),
        ),
        Question(
            "`u = torch.zeros(2, requires_grad=True)`, the length of a vector: "
            "`norm = (u * u).sum().sqrt()`. Inside `torch.autograd.detect_anomaly()`, "
            "`norm.backward()` raises. Which node does the error name?",
            (
                "`SqrtBackward0`: the derivative of the square root at 0 is infinite",
                "`SumBackward0`: it spreads the infinite gradient over the elements",
                "`MulBackward0`: it multiplies the infinite gradient by `u`, which is 0, and "
                "`inf * 0` is `nan`",
                "`torch::autograd::AccumulateGrad`: the `nan` arrives in `u.grad` there",
            ),
            2,
            (
                "Its gradient is `inf`, which is not a `nan`: the search goes on.",
                "Spreading copies the `inf` to each element: still no `nan`.",
                "Right: the first node whose gradient is `nan` raises, and the warning shows "
                "the line of `u * u`.",
                "The check is on what each node returns; the multiplication before it already "
                "returned the `nan`.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 06 Clearing gradients, no_grad
    6: [
        Question(
            "What does `optimizer.zero_grad()` do, and why is it called in every training "
            "step?",
            (
                "It clears the gradients of the parameters, because `backward()` adds to "
                "`.grad` instead of overwriting it",
                "It sets all the weights to zero before the next step",
                "It deletes the graph so that a new one can be recorded",
                "It turns gradient tracking off for the next forward pass",
            ),
            0,
            (
                "Right: without it, each step would use the sum of all previous gradients. "
                "(`x.grad.zero_()` does the same for one tensor; since PyTorch 2.0, "
                "`zero_grad()` sets `.grad` to `None` by default, which has the same effect.)",
                "That would erase everything the model has learned.",
                "It only touches `.grad`. Each forward pass records a new graph anyway, and "
                "`backward()` has already freed what the old one saved.",
                "That is what `torch.no_grad()` is for.",
            ),
        ),
        Question(
            "Which lines stop PyTorch from tracking gradients?",
            (
                "`x.requires_grad_(False)`",
                "`x_det = x.detach()`",
                "`with torch.no_grad():` around the computation",
                "`x.requires_grid(false)`",
                "`x.grad = None`",
            ),
            {0, 1, 2},
            (
                "Yes: turns tracking off for the leaf `x`, in place (the trailing `_`). "
                "On a non-leaf tensor it raises an error: use `detach()` there.",
                "Yes: a new tensor sharing `x`'s data, cut off from the graph, with "
                "`requires_grad=False`.",
                "Yes: nothing computed inside the block is recorded.",
                "A common typo: the method is `requires_grad_` (\"grad\", "
                "with a trailing underscore) and Python writes `False` with a capital F. "
                "As written, Python raises an AttributeError.",
                "No: that clears the stored gradient, but `x` still requires grad and is "
                "still tracked.",
            ),
            multi=True,
        ),
        Question(
            f"{_EXAMPLE} Inside `with torch.no_grad():` you compute "
            "`z = torch.matmul(x, w) + b`. What is `z.requires_grad`?",
            ("`False`", "`True`", "It depends on `w.requires_grad`", "An error is raised"),
            0,
            (
                "Right: inside `no_grad`, results are not tracked even when `w` and `b` "
                "require gradients, so `z.grad_fn` is `None` too.",
                "Outside the block it would be `True`; inside, nothing is recorded.",
                "`no_grad` overrides the inputs' `requires_grad` for everything inside it.",
                "Computing under `no_grad` is fine; only calling `z.backward()` would fail.",
            ),
        ),
        Question(
            "Why would you exclude tensors from the graph?",
            (
                "To freeze the parameters of a pretrained network while fine-tuning the rest",
                "To make forward-only inference faster and lighter (no graph is recorded)",
                "To make the model more accurate",
                "Because `backward()` requires it",
            ),
            {0, 1},
            (
                "Yes: frozen parameters get no gradients, so the optimizer leaves them alone.",
                "Yes: evaluating a trained model needs no gradients; `no_grad` skips the "
                "recording (you will measure the difference in this chapter).",
                "Freezing does not change what the model computes, only what it learns.",
                "`backward()` works with or without frozen tensors; it simply skips them.",
            ),
            multi=True,
        ),
        Question(
            "Which statements about `model.eval()`, `torch.no_grad()` and "
            "`torch.inference_mode()` are true?",
            (
                "`model.eval()` switches Dropout off and makes BatchNorm use its running "
                "statistics, but operations are still recorded",
                "`no_grad()` stops recording, but Dropout still drops in training mode",
                "`inference_mode()` also skips version counting: tensors made inside are "
                "inference tensors",
                "`model.eval()` stops autograd from recording",
            ),
            {0, 1, 2},
            (
                "Yes: eval() changes the layers' behaviour, not autograd.",
                "Yes: they are independent switches; for evaluation use both.",
                "Yes, and such tensors cannot be saved for backward later.",
                "No: eval() only sets `training = False` on every module.",
            ),
            multi=True,
        ),
    ],
    # ------------------------------------------------------------ 07 Neural networks
    7: [
        Question(
            "The update rule is `weight = weight - learning_rate * gradient`. Why minus?",
            (
                "The gradient points in the direction in which the loss grows fastest; we "
                "step the other way to make the loss smaller",
                "Because gradients are always positive",
                "To keep the weights small",
                "The sign does not matter",
            ),
            0,
            (
                "Right: that is gradient *descent*.",
                "Gradients can have either sign; the minus works for both.",
                "Keeping weights small is the job of weight decay, a separate term.",
                "With a plus you would climb the loss: gradient *ascent*.",
            ),
        ),
        Question(
            "Which class do you subclass to write a new operation with its own `forward` "
            "and `backward`?",
            ("`torch.autograd.Function`", "`torch.autograd.Parameter`", "`torch.nn.Parameter`",
             "`torch.nn.Module`"),
            0,
            (
                "Right: a `Function` has static `forward(ctx, ...)` and `backward(ctx, "
                "grad_output)` methods, and saves what backward needs with "
                "`ctx.save_for_backward`. Every built-in operation is one too.",
                "There is no `autograd.Parameter`: this mixes up `autograd.Function` and "
                "`nn.Parameter`, a common confusion.",
                "`nn.Parameter` is a tensor that a `Module` registers as learnable; it "
                "defines no operation.",
                "In a `Module` you write only `forward`; its backward comes from the "
                "`Function`s that `forward` uses.",
            ),
        ),
        Question(
            "What is `nn.Parameter`?",
            (
                "A tensor that is registered as a parameter when assigned as an attribute of "
                "a `Module`, and requires grad by default",
                "A hyper-parameter such as the learning rate",
                "A layer of a network",
                "A function that computes gradients",
            ),
            0,
            (
                "Right: `self.w = nn.Parameter(torch.randn(3))` makes `w` appear in "
                "`module.parameters()`, so the optimizer updates it.",
                "Hyper-parameters are plain Python numbers that you choose; they are not "
                "learned.",
                "Layers are `nn.Module`s; they *own* parameters.",
                "Gradients come from autograd; a parameter only stores a tensor (and its "
                "`.grad`).",
            ),
        ),
        Question(
            "`layer = nn.Linear(4, 3)` and `params = list(layer.parameters())`. What are "
            "`len(params)` and `params[0].size()`?",
            (
                "`2` and `torch.Size([3, 4])`",
                "`2` and `torch.Size([4, 3])`",
                "`12` and `torch.Size([1])`",
                "`1` and `torch.Size([3, 4])`",
            ),
            0,
            (
                "Right: a weight and a bias; the weight is stored as "
                "(out_features, in_features), and `forward` computes `x @ W.T + b`.",
                "PyTorch stores the weight transposed, as (out_features, in_features).",
                "Parameters are whole tensors, not single numbers.",
                "The bias is a parameter too (unless you pass `bias=False`).",
            ),
        ),
    ],
    # ------------------------------------------------------------ 08 Training
    8: [
        Question(
            "Which loss suits a binary classifier whose last layer outputs raw scores "
            "(logits)?",
            ("`nn.BCEWithLogitsLoss`", "`nn.MSELoss`", "`nn.BCELoss`", "`nn.CrossEntropyLoss`"),
            0,
            (
                "Right: it applies the sigmoid and the binary cross-entropy together, in a "
                "numerically stable way.",
                "Mean-squared error is for regression (predicting numbers).",
                "`BCELoss` expects probabilities, i.e. a sigmoid already applied.",
                "`CrossEntropyLoss` is for several classes: logits of shape (N, C) and class "
                "indices as targets.",
            ),
        ),
        Question(
            "In a training step, in which order do the three optimizer lines go?",
            (
                "`optimizer.zero_grad()`, `loss.backward()`, `optimizer.step()`",
                "`loss.backward()`, `optimizer.step()`, and no `zero_grad()`: `step()` clears "
                "the gradients itself",
                "`optimizer.step()`, `loss.backward()`, `optimizer.zero_grad()`",
                "`loss.backward()`, `optimizer.zero_grad()`, `optimizer.step()`",
            ),
            0,
            (
                "Right: clear the old gradients, compute the new ones, update. (`zero_grad()` "
                "may also come right after `step()`: what matters is that it falls between two "
                "`backward()` calls.)",
                "`step()` only updates. Without `zero_grad()` the gradients of every step add "
                "up (chapter 06), and each step uses the sum of all the gradients so far.",
                "`step()` before `backward()` updates with the previous step's gradients (and "
                "with none at all at the first step).",
                "Clearing between `backward()` and `step()` throws the new gradients away: plain "
                "SGD then sees zeros and does not move.",
            ),
        ),
        Question(
            "A `Conv2d(1, 4, kernel_size=3)` on a 1 x 8 x 8 image. Which is the same "
            "computation?",
            (
                "A `Linear(64, 4)` on the flattened image",
                "A `Linear(9, 4)` applied to every 3 x 3 patch (the unfolded input), with the "
                "same weights at every position",
                "A `Linear(9, 36)` on one patch",
                "Four separate `Linear(64, 64)` layers",
            ),
            1,
            (
                "That would mix all 64 pixels into each output; a convolution looks only at "
                "a 3 x 3 neighbourhood.",
                "Right: weight sharing. A convolution is a small linear layer slid over the "
                "patches: 40 parameters instead of thousands.",
                "The output channels are 4, and each patch gives one value per channel.",
                "A convolution has far fewer parameters; that is its point.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 09 Data
    9: [
        Question(
            "A map-style `Dataset` subclass must implement which methods?",
            ("`__len__`", "`__getitem__`", "`__iter__`", "`forward`"),
            {0, 1},
            (
                "Yes: so the `DataLoader` knows how many samples there are.",
                "Yes: `ds[i]` returns sample `i` (often a `(features, label)` pair).",
                "No: that is for an `IterableDataset`, which streams samples instead.",
                "No: `forward` belongs to `nn.Module`.",
            ),
            multi=True,
        ),
        Question(
            "What are the roles of `Dataset` and `DataLoader`?",
            (
                "`Dataset` stores the samples and their labels; `DataLoader` wraps an "
                "iterable around it that yields batches (optionally shuffled)",
                "`DataLoader` stores the samples; `Dataset` batches and shuffles them",
                "`Dataset` downloads data; `DataLoader` trains the model",
                "They are two names for the same thing",
            ),
            0,
            (
                "Right: a map-style `Dataset` answers `len(ds)` and `ds[i]`; the "
                "`DataLoader` decides the order, groups samples into batches and stacks them.",
                "It is the other way round.",
                "Some datasets can download their files, but neither class trains anything: "
                "your training loop does.",
                "They split the work: storage and access vs iteration and batching.",
            ),
        ),
        Question(
            "A dataset has 1000 samples. With `DataLoader(ds, batch_size=64)`, how many "
            "batches does one epoch have?",
            ("16", "15", "64", "1000"),
            0,
            (
                "Right: 15 full batches of 64 (960 samples) and a last batch of 40. Pass "
                "`drop_last=True` to skip the incomplete one.",
                "The remaining 40 samples form a 16th, smaller batch (unless `drop_last=True`).",
                "64 is the batch size, not the number of batches.",
                "That would be a batch size of 1.",
            ),
        ),
        Question(
            "Why pass `shuffle=True` to the training `DataLoader`?",
            (
                "So that each epoch sees the samples in a new order and the batches are not "
                "biased by how the file was sorted",
                "To make the model more accurate on the test set by shuffling it too",
                "To make training deterministic",
                "Shuffling makes each epoch faster",
            ),
            0,
            (
                "Right: a file sorted by label would otherwise give whole batches of one "
                "class, and the gradient steps would zig-zag.",
                "Evaluation does not need shuffling; the order does not change the test "
                "accuracy.",
                "Shuffling adds randomness; set a seed (`torch.manual_seed`) for "
                "repeatable runs.",
                "The amount of work per epoch is the same.",
            ),
        ),
        Question(
            "A dataset of 10 samples, `DataLoader(ds, batch_size=4, drop_last=True)`. How many "
            "batches does one epoch give, and of what sizes?",
            ("3 batches: 4, 4, 2", "2 batches: 4, 4", "3 batches: 4, 4, 4", "2 batches: 5, 5"),
            1,
            (
                "That is `drop_last=False`, the default.",
                "Right: the incomplete last batch (2 samples) is dropped.",
                "A loader never repeats samples within an epoch to fill a batch.",
                "The batch size is fixed at 4.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 10 Capstone: your own autograd
    10: [
        Question(
            "`a` has shape (3, 1), `b` has shape (1, 4), and `c = a * b` has shape (3, 4). After "
            "`c.sum().backward()`, what is `a.grad`?",
            (
                "Shape (3, 4): one gradient for each element of `c`",
                "Shape (3, 1), each entry the sum of `b`: `a[i]` multiplied every `b[j]`, and "
                "the paths add up",
                "Shape (3, 1), each entry the mean of `b`",
                "Shape (1, 4): `b`, copied",
            ),
            1,
            (
                "A gradient always has its tensor's shape: `a.grad` is (3, 1).",
                "Right: `a[i]` was used in four products, once per `b[j]`. Each use is a path "
                "with the factor `b[j]`, and `unbroadcast` sums them over the stretched axis.",
                "Paths add up; nothing is averaged.",
                "That is the shape of `b`, not of `a`.",
            ),
        ),
        Question(
            "Why does a stable log-softmax subtract each row's maximum before `exp`?",
            (
                "To make every output negative",
                "It changes the result a little, but makes training faster",
                "So that `exp` cannot overflow: shifting a row by a constant does not change "
                "its log-softmax, and after the shift the largest exponent is `exp(0) = 1`",
                "To avoid a division by zero when all scores of a row are equal",
            ),
            2,
            (
                "Log-probabilities are never positive anyway; the shift does not change them.",
                "The result is exactly the same (up to rounding): the shift cancels out.",
                "Right: in float32, `exp(89)` is already `inf`; without the shift, a score of "
                "1000 turns the log-probabilities into `-inf` or `nan`.",
                "Equal scores give equal probabilities, and no division by zero: the sum of the "
                "exponentials is at least 1 after the shift.",
            ),
        ),
        Question(
            "minitorch computes second derivatives with `create_graph=True`. Why can your "
            "library not?",
            (
                "Its topological sort visits each node only once",
                "It has no version counter",
                "Second derivatives need finite differences, which it lacks",
                "Its backward formulas compute on NumPy arrays, so a gradient it produces has "
                "no graph to differentiate again",
            ),
            3,
            (
                "minitorch's engine also visits each node once per backward pass.",
                "The version counter guards saved tensors against in-place changes; it records "
                "nothing.",
                "Autograd differentiates twice without finite differences (chapter 05).",
                "Right: minitorch writes its backward formulas with tensor operations, and "
                "`create_graph=True` records them as a graph of their own.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 11 GPU: devices
    11: [
        Question(
            "`x` is on the GPU and `w` is on the CPU. What does `x @ w` do?",
            (
                "It raises an error: the tensors are on different devices",
                "It moves `w` to the GPU automatically",
                "It moves `x` to the CPU automatically",
                "It computes on whichever device is faster",
            ),
            0,
            (
                "Right: PyTorch never copies data between devices behind your back; move "
                "one tensor first, e.g. `w = w.to(x.device)`.",
                "Silent copies would hide slow transfers, so they are not done.",
                "Silent copies would hide slow transfers, so they are not done.",
                "There is no automatic device choice: the device is a property of each "
                "tensor.",
            ),
        ),
        Question(
            "What does `x.to(\"cuda\")` do for a tensor `x` on the CPU?",
            (
                "It returns a copy of `x` on the GPU; `x` itself stays on the CPU",
                "It moves `x` in place, so `x.device` becomes cuda",
                "It returns `x` unchanged if the CPU is fast enough",
                "It converts `x` to a NumPy array",
            ),
            0,
            (
                "Right: write `x = x.to(\"cuda\")`. (For an `nn.Module`, `.to()` moves its "
                "parameters in place and returns the module itself.)",
                "For tensors `.to()` is not in place; forgetting `x = ...` is a common bug.",
                "`.to()` always honours the device you name (if it exists).",
                "That is `x.cpu().numpy()`.",
            ),
        ),
        Question(
            "How do you write code that runs both with and without a GPU?",
            (
                "`device = \"cuda\" if torch.cuda.is_available() else \"cpu\"`, then create "
                "or move tensors and models with `device=device` / `.to(device)`",
                "Write two copies of the code, one per device",
                "Always use `\"cuda\"`: PyTorch falls back to the CPU when there is no GPU",
                "Wrap the code in `try: ... except: ...`",
            ),
            0,
            (
                "Right: one variable decides the device, and the rest of the code is the "
                "same. The notebooks of this course do exactly that.",
                "One copy, one device variable: that is the point of the `.to()` API.",
                "Without a GPU, `\"cuda\"` raises an error; there is no silent fallback.",
                "Catching errors hides real bugs; ask `torch.cuda.is_available()` instead.",
            ),
        ),
    ],
    # ------------------------------------------------------------ 12 GPU: speed and backends
    12: [
        Question(
            "When does running on a GPU pay off?",
            (
                "Large tensors and big matrix products, where the work dwarfs the cost of "
                "launching kernels and copying data",
                "Tiny tensors, e.g. a scalar loss computed in a Python loop",
                "Always: a GPU is faster for every operation",
                "Never for training, only for inference",
            ),
            0,
            (
                "Right: a GPU runs thousands of arithmetic operations in parallel, but "
                "every operation has a fixed launch cost and every copy to and from the GPU "
                "takes time. Measure it: in this chapter you will find the break-even size.",
                "For tiny tensors the fixed overheads dominate, and the CPU is often faster.",
                "Small operations and data transfers can make the GPU slower than the CPU.",
                "Training (big batches, many matrix products) is where GPUs help most.",
            ),
        ),
        Question(
            "You time a GPU matrix product. Which habits give honest numbers?",
            (
                "Run it a few times first (warm-up) and leave those runs out",
                "Wait for the GPU to finish (synchronize) before stopping the clock",
                "Repeat the measurement and take the median or minimum",
                "Time only the first call",
            ),
            {0, 1, 2},
            (
                "Yes: the first calls pay one-time costs (loading kernels, allocating memory).",
                "Yes: GPU calls return before the work is done; without synchronizing you "
                "measure only the launch.",
                "Yes: single timings are noisy.",
                "No: the first call includes the one-time costs and misleads you.",
            ),
            multi=True,
        ),
        Question(
            "In minitorch, what does a device backend have to provide?",
            (
                "Which arrays are its own, and how to copy an array to and from the host "
                "(`owns`, `from_numpy`, `to_numpy`), plus an array module",
                "A new `backward` for every operation, written for that device",
                "A second `Tensor` class for that device",
                "Nothing: NumPy runs on the GPU by itself",
            ),
            0,
            (
                "Right: the autograd code never changes. Every operation computes through the "
                "NumPy API, and NumPy hands CuPy arrays over to CuPy.",
                "The derivatives are the same on every device: each backward is written once, "
                "with the array API.",
                "One `Tensor` class serves every device: a tensor's device follows from the type "
                "of its array.",
                "NumPy computes on the CPU. It hands CuPy arrays to CuPy, but something must "
                "create those arrays and copy the data: that is the backend.",
            ),
        ),
    ],
}


def quiz_for(chapter: int, index: int) -> Quiz:
    """The quiz widget for question ``index`` of ``chapter`` (both counted from 0).

    Args:
        chapter: the chapter number (the notebook's two digits, as an int).
        index: the question's position in ``QUESTIONS[chapter]``.

    Raises:
        KeyError: if there is no such chapter.
        IndexError: if the chapter has no question ``index``.

    Example:
        >>> quiz_for(6, 1).multi
        True
    """
    if chapter not in QUESTIONS:
        raise KeyError(f"no quiz questions for chapter {chapter}; chapters: {sorted(QUESTIONS)}")
    questions = QUESTIONS[chapter]
    if not 0 <= index < len(questions):
        raise IndexError(
            f"chapter {chapter} has {len(questions)} questions (index 0 to {len(questions) - 1})"
        )
    return questions[index].quiz()

# Learn the Basics: Build the Neural Network (model layers, named_parameters) and Optimizing
# Model Parameters (train_loop / test_loop), on tiny 6x6 "images" made inline instead of
# FashionMNIST; the optimizer takes per-parameter groups from named_parameters and its learning
# rate follows LinearLR warm-up, then CosineAnnealingWarmRestarts (torch.optim's docs).
import minitorch as torch
import minitorch.nn.functional as F
from minitorch import nn
from minitorch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# -- model layers --
input_image = torch.rand(3, 6, 6)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=6 * 6, out_features=8)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(
    flatten,
    layer1,
    nn.ReLU(),
    nn.Linear(8, 4),
)
input_image = torch.rand(3, 6, 6)
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab, pred_probab.argmax(1))


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8 * 8, 16),
            nn.ReLU(),
            nn.Linear(16, 16),
            nn.ELU(),
            nn.Linear(16, 3),
        )

    def forward(self, x):
        x = F.pad(x, (1, 1, 1, 1))  # a zero border: 6x6 -> 8x8
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")

# -- a tiny data set: three classes of 6x6 pictures (a bright row, column or diagonal) --
g = torch.Generator().manual_seed(1)
X = torch.rand(48, 6, 6, generator=g) * 0.3
y = torch.arange(48) % 3
pos = torch.randint(0, 6, (48,), generator=g)
for i in range(48):
    if y[i] == 0:
        X[i, pos[i], :] += 1
    elif y[i] == 1:
        X[i, :, pos[i]] += 1
    else:
        X[i] += torch.eye(6).roll(int(pos[i]), dims=1)
training_data = TensorDataset(X[:36], y[:36])
test_data = TensorDataset(X[36:], y[36:])
print(len(training_data), training_data[0][0].shape, training_data[0][1])

learning_rate = 5e-2
batch_size = 6
epochs = 10
train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=batch_size)
loss_fn = nn.CrossEntropyLoss()

# no weight decay for biases: two parameter groups from named_parameters
decay = [p for n, p in model.named_parameters() if not n.endswith("bias")]
no_decay = [p for n, p in model.named_parameters() if n.endswith("bias")]
optimizer = torch.optim.Adamax([{"params": decay, "weight_decay": 1e-3},
                                {"params": no_decay}], lr=learning_rate)
print(optimizer)
warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.25, total_iters=3)
restarts = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=2, T_mult=2,
                                                                eta_min=1e-4)
scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, restarts], milestones=[3])


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    # Set the model to training mode - important for batch normalization and dropout layers
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        # Compute prediction and loss
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 3 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    # Set the model to evaluation mode - important for batch normalization and dropout layers
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0

    # Evaluating the model with torch.no_grad() ensures that no gradients are computed
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()

    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t+1} (lr {scheduler.get_last_lr()})\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
    scheduler.step()
print("Done!")
print([group["lr"] for group in optimizer.param_groups], sorted(optimizer.param_groups[0]))
state = optimizer.state_dict()["state"]
print(sorted(state), sorted(state[0]), state[0]["step"], state[1]["exp_inf"][:2])

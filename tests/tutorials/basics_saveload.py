# Learn the Basics: Save and Load the Model. A state_dict saved and loaded with
# weights_only=True, then the whole model with torch.save(model, ...) and
# torch.load(..., weights_only=False). (The tutorial uses torchvision's VGG16; here the
# Quickstart's network, with weights set explicitly.)
import os
import tempfile

import minitorch as torch
from minitorch import nn


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(4 * 4, 8),
            nn.ReLU(),
            nn.Linear(8, 8),
            nn.ReLU(),
            nn.Linear(8, 3),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


def set_weights(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            n = p.numel()
            p.copy_(torch.linspace(-1.0, 1.0, n).reshape(p.shape) * (0.5 + 0.1 * i))


model = NeuralNetwork()
set_weights(model)
X = torch.linspace(0.0, 1.0, 2 * 16).reshape(2, 4, 4)
print(model(X))

directory = tempfile.mkdtemp()
weights_path = os.path.join(directory, "model_weights.pth")
torch.save(model.state_dict(), weights_path)

model = NeuralNetwork()  # we do not set the weights: an untrained model
print(model.load_state_dict(torch.load(weights_path, weights_only=True)))
print(model.eval())
print(model(X))

model_path = os.path.join(directory, "model.pth")
torch.save(model, model_path)
try:
    torch.load(model_path)  # the default, weights_only=True, refuses a whole model
except Exception as e:
    print(type(e).__name__, str(e).split(".")[0])
model = torch.load(model_path, weights_only=False)
print(type(model).__name__, model.training)
print(model(X))
print(model(X).argmax(1))

# a checkpoint for resuming training: a dict of state_dicts and numbers
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model.train()
loss = nn.CrossEntropyLoss()(model(X), torch.tensor([0, 2]))
loss.backward()
optimizer.step()
checkpoint_path = os.path.join(directory, "checkpoint.pth")
torch.save({"epoch": 1, "model_state_dict": model.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": loss}, checkpoint_path)
checkpoint = torch.load(checkpoint_path, weights_only=True)
model = NeuralNetwork()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
model.load_state_dict(checkpoint["model_state_dict"])
optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
print(checkpoint["epoch"], checkpoint["loss"], optimizer.param_groups[0]["lr"])
print(model(X))

for name in os.listdir(directory):
    os.remove(os.path.join(directory, name))
os.rmdir(directory)

# Zeroing out gradients (recipe): a small CNN, SGD, zero_grad between steps.
import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
import minitorch.optim as optim

torch.manual_seed(0)
trainset = torch.utils.data.TensorDataset(torch.rand(40, 3, 32, 32) * 2 - 1, torch.randint(0, 10, (40,)))
trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True, num_workers=0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.flatten(start_dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
print(criterion, optimizer)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 5 == 4:
            print('[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 5))
            running_loss = 0.0
print('Finished Training')
print(net.fc3.weight.grad[0, :4])
net.zero_grad()
print(net.fc3.weight.grad)
optimizer.zero_grad(set_to_none=False)
print(net.fc3.bias.grad)
net(inputs).sum().backward()
net.zero_grad(set_to_none=False)
print(net.fc3.bias.grad)

# Adversarial Example Generation (FGSM, beginner tutorial): gradients with respect to the input,
# on a small random LeNet and random images in place of MNIST.
import numpy as np

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F

torch.manual_seed(0)

epsilons = [0, .05, .1, .15, .2, .25, .3]

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)

class DS(torch.utils.data.Dataset):
    def __init__(self):
        self.x = torch.rand(40, 1, 28, 28)
        self.y = torch.randint(0, 10, (40,))
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]

print("CUDA Available: ",torch.cuda.is_available())
device = torch.device("cpu")
model = Net().to(device)
ds = DS()
# make labels match predictions for half of them so some are 'correct'
with torch.no_grad():
    pred = model.eval()(ds.x).argmax(1)
ds.y[:30] = pred[:30]
test_loader = torch.utils.data.DataLoader(ds, batch_size=1, shuffle=True)
print(model.eval())
print(model)

def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon*sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image

def denorm(batch, mean=[0.1307], std=[0.3081]):
    if isinstance(mean, list):
        mean = torch.tensor(mean).to(device)
    if isinstance(std, list):
        std = torch.tensor(std).to(device)
    return batch * std.view(1, -1, 1, 1) + mean.view(1, -1, 1, 1)

def test( model, device, test_loader, epsilon ):
    correct = 0
    adv_examples = []
    for data, target in test_loader:
        data, target = data.to(device), target.to(device)
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        data_denorm = denorm(data)
        perturbed_data = fgsm_attack(data_denorm, epsilon, data_grad)
        perturbed_data_normalized = transforms_normalize(perturbed_data)
        output = model(perturbed_data_normalized)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
            if epsilon == 0 and len(adv_examples) < 5:
                adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                adv_examples.append( (init_pred.item(), final_pred.item(), adv_ex) )
        else:
            if len(adv_examples) < 5:
                adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                adv_examples.append( (init_pred.item(), final_pred.item(), adv_ex) )
    final_acc = correct/float(len(test_loader))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(test_loader)} = {final_acc}")
    return final_acc, adv_examples

def transforms_normalize(x):
    return (x - 0.1307) / 0.3081

accuracies = []
examples = []
for eps in epsilons:
    acc, ex = test(model, device, test_loader, eps)
    accuracies.append(acc)
    examples.append(ex)
print(accuracies)
print([[(o, a, e.shape, e.dtype) for o, a, e in x] for x in examples])
print(np.arange(0, 1.1, step=0.1))
x = torch.rand(2, 3, requires_grad=True)
y = (x * 2).sum()
y.backward()
print(x.grad, x.grad.data, x.grad.sign())
print(torch.clamp(x, 0, 0.5))

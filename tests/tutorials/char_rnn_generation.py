# NLP From Scratch: Generating Names with a Character-Level RNN (tiny inline data instead of
# data/names/*.txt): training by hand-written SGD on p.data, sampling with topk, and the
# multinomial sampling that the char-RNN examples use.
import random
import string

import minitorch as torch
import minitorch.nn as nn

all_letters = string.ascii_letters + " .,;'-"
n_letters = len(all_letters) + 1  # Plus EOS marker
category_lines = {
    "English": ["Abbott", "Baker", "Carter", "Dawson", "Ellis", "Fisher"],
    "Italian": ["Abate", "Bianchi", "Caruso", "Conti", "Rossi", "Russo"],
    "Russian": ["Abramov", "Babkin", "Ivanov", "Petrov", "Romanov", "Sokolov"],
}
all_categories = list(category_lines)
n_categories = len(all_categories)
print("# categories:", n_categories, all_categories, n_letters)


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(n_categories + input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(n_categories + input_size + hidden_size, output_size)
        self.o2o = nn.Linear(hidden_size + output_size, output_size)
        self.dropout = nn.Dropout(0.1)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, category, input, hidden):
        input_combined = torch.cat((category, input, hidden), 1)
        hidden = self.i2h(input_combined)
        output = self.i2o(input_combined)
        output_combined = torch.cat((hidden, output), 1)
        output = self.o2o(output_combined)
        output = self.dropout(output)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


def randomChoice(items):
    return items[random.randint(0, len(items) - 1)]


def randomTrainingPair():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    return category, line


def categoryTensor(category):
    li = all_categories.index(category)
    tensor = torch.zeros(1, n_categories)
    tensor[0][li] = 1
    return tensor


def inputTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li in range(len(line)):
        letter = line[li]
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor


def targetTensor(line):
    letter_indexes = [all_letters.find(line[li]) for li in range(1, len(line))]
    letter_indexes.append(n_letters - 1)  # EOS
    return torch.LongTensor(letter_indexes)


def randomTrainingExample():
    category, line = randomTrainingPair()
    category_tensor = categoryTensor(category)
    input_line_tensor = inputTensor(line)
    target_line_tensor = targetTensor(line)
    return category_tensor, input_line_tensor, target_line_tensor


criterion = nn.NLLLoss()
learning_rate = 0.01


def train(category_tensor, input_line_tensor, target_line_tensor):
    target_line_tensor.unsqueeze_(-1)
    hidden = rnn.initHidden()
    rnn.zero_grad()
    loss = torch.Tensor([0])  # you can also just simply use ``loss = 0``
    for i in range(input_line_tensor.size(0)):
        output, hidden = rnn(category_tensor, input_line_tensor[i], hidden)
        step_loss = criterion(output, target_line_tensor[i])
        loss += step_loss
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item() / input_line_tensor.size(0)


random.seed(0)
torch.manual_seed(0)
rnn = RNN(n_letters, 32, n_letters)
print(rnn)
c, i, t = randomTrainingExample()
print(c, i.shape, i.dtype, t)
output, hidden = rnn(c, i[0], rnn.initHidden())
print(output.shape, output.grad_fn.name(), hidden.grad_fn.name(), f"{output.exp().sum():.4f}")

n_iters = 600
print_every = 200
total_loss = 0
for iter in range(1, n_iters + 1):
    output, loss = train(*randomTrainingExample())
    total_loss += loss
    if iter % print_every == 0:
        print(f"({iter} {iter / n_iters * 100:.0f}%) {total_loss / print_every:.4f}")
        total_loss = 0

max_length = 12


# Sample from a category and starting letter
def sample(category, start_letter="A"):
    with torch.no_grad():  # no need to track history in sampling
        category_tensor = categoryTensor(category)
        input = inputTensor(start_letter)
        hidden = rnn.initHidden()
        output_name = start_letter
        for _ in range(max_length):
            output, hidden = rnn(category_tensor, input[0], hidden)
            topv, topi = output.topk(1)
            topi = topi[0][0]
            if topi == n_letters - 1:
                break
            else:
                letter = all_letters[topi]
                output_name += letter
            input = inputTensor(letter)
        return output_name


# Get multiple samples from one category and multiple starting letters
def samples(category, start_letters="ABC"):
    for start_letter in start_letters:
        print(sample(category, start_letter))


rnn.eval()  # no dropout while sampling: the greedy names are deterministic
samples("Russian", "RUS")
samples("Italian", "ICR")
print(sample("English", "D"))


# sampling from the distribution instead of the argmax, at a temperature
def sample_multinomial(category, start_letter, temperature=0.8):
    with torch.no_grad():
        category_tensor = categoryTensor(category)
        input = inputTensor(start_letter)
        hidden = rnn.initHidden()
        output_name = start_letter
        for _ in range(max_length):
            output, hidden = rnn(category_tensor, input[0], hidden)
            probs = torch.softmax(output / temperature, dim=1)
            topi = torch.multinomial(probs, 1)[0][0]
            if topi == n_letters - 1:
                break
            letter = all_letters[topi]
            output_name += letter
            input = inputTensor(letter)
        return output_name


torch.manual_seed(3)
with torch.no_grad():
    output, _ = rnn(categoryTensor("Italian"), inputTensor("R")[0], rnn.initHidden())
    values, indices = output.topk(5)
    print(values, indices, [all_letters[i] for i in indices[0]])
    probs = output.exp()
    print(torch.multinomial(probs, 8, replacement=True), torch.multinomial(probs[0], 3))
print([sample_multinomial(c, "B") for c in all_categories])

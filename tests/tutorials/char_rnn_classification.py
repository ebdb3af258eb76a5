# NLP From Scratch: Classifying Names with a Character-Level RNN (intermediate tutorial),
# a few made-up names per language in place of the download.
import random
import string
import unicodedata

import minitorch as torch
import minitorch.nn as nn
from minitorch.autograd import Variable

torch.manual_seed(0)
random.seed(0)

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)

def unicodeToAscii(s):
    return ''.join(
        c for c in unicodedata.normalize('NFD', s)
        if unicodedata.category(c) != 'Mn'
        and c in all_letters
    )

print(unicodeToAscii('Ślusàrski'))
category_lines = {
    'Italian': ['Abandonato', 'Abatangelo', 'Abatantuono', 'Abate', 'Abategiovanni', 'Rossi'],
    'German': ['Schmidt', 'Mueller', 'Schneider', 'Fischer', 'Weber', 'Becker'],
    'Japanese': ['Satoshi', 'Tanaka', 'Suzuki', 'Takahashi', 'Watanabe', 'Yamamoto'],
    'Russian': ['Dovesky', 'Ivanov', 'Smirnov', 'Kuznetsov', 'Popov', 'Vasiliev'],
}
all_categories = list(category_lines)
n_categories = len(all_categories)
print(category_lines['Italian'][:5])

def letterToIndex(letter):
    return all_letters.find(letter)

def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor

def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor

print(letterToTensor('J'))
print(lineToTensor('Jones').size())

class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return Variable(torch.zeros(1, self.hidden_size))

n_hidden = 128
rnn = RNN(n_letters, n_hidden, n_categories)
print(rnn)
input = Variable(letterToTensor('A'))
hidden = Variable(torch.zeros(1, n_hidden))
output, next_hidden = rnn(input, hidden)
input = Variable(lineToTensor('Albert'))
hidden = Variable(torch.zeros(1, n_hidden))
output, next_hidden = rnn(input[0], hidden)
print(output)

def categoryFromOutput(output):
    top_n, top_i = output.data.topk(1)
    category_i = top_i[0][0]
    return all_categories[category_i], category_i

print(categoryFromOutput(output))

def randomChoice(l):
    return l[random.randint(0, len(l) - 1)]

def randomTrainingExample():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    category_tensor = Variable(torch.LongTensor([all_categories.index(category)]))
    line_tensor = Variable(lineToTensor(line))
    return category, line, category_tensor, line_tensor

for i in range(10):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    print('category =', category, '/ line =', line)

criterion = nn.NLLLoss()
learning_rate = 0.005

def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()

try:
    train(*randomTrainingExample()[2:])
    p = next(rnn.parameters())
    p.data.add_(-learning_rate, p.grad.data)
except Exception as e:
    print(type(e).__name__, e)
try:
    out = criterion(output, torch.LongTensor([1]))
    out.data[0]
except Exception as e:
    print(type(e).__name__, e)

n_iters = 400
print_every = 50
plot_every = 20
current_loss = 0
all_losses = []
for iter in range(1, n_iters + 1):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if iter % print_every == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = '✓' if guess == category else '✗ (%s)' % category
        print('%d %d%% %.4f %s / %s %s' % (iter, iter / n_iters * 100, loss, line, guess, correct))
    if iter % plot_every == 0:
        all_losses.append(current_loss / plot_every)
        current_loss = 0
print(["%.4f" % l for l in all_losses])

confusion = torch.zeros(n_categories, n_categories)
n_confusion = 100

def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output

for i in range(n_confusion):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output = evaluate(line_tensor)
    guess, guess_i = categoryFromOutput(output)
    category_i = all_categories.index(category)
    confusion[category_i][guess_i] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)
print(confusion.numpy().round(3))

def predict(input_line, n_predictions=3):
    print('\n> %s' % input_line)
    output = evaluate(Variable(lineToTensor(input_line)))
    topv, topi = output.data.topk(n_predictions, 1, True)
    predictions = []
    for i in range(n_predictions):
        value = topv[0][i]
        category_index = topi[0][i]
        print('(%.2f) %s' % (value, all_categories[category_index]))
        predictions.append([value, all_categories[category_index]])
    print(predictions)

predict('Dovesky')
predict('Jackson')
predict('Satoshi')

# the same with nn.RNN and CrossEntropyLoss, manual SGD
torch.manual_seed(0)
class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output

model = CharRNN(n_letters, 32, n_categories)
print(model)
ce = nn.CrossEntropyLoss()
for iter in range(1, 101):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    model.zero_grad()
    output = model(line_tensor)
    loss = ce(output, category_tensor)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 3)
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.05 * p.grad
    if iter % 25 == 0:
        print(iter, '%.4f' % loss.item(), line, categoryFromOutput(output))
print(model(lineToTensor('Satoshi')))

# Deep Learning for NLP with PyTorch: Sequence Models and LSTMs (the part-of-speech tagger).
import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
import minitorch.optim as optim


def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)


training_data = [
    ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("Everybody read that book".split(), ["NN", "V", "DET", "NN"]),
]
word_to_ix = {}
for sent, _ in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
EMBEDDING_DIM = 6
HIDDEN_DIM = 6


class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores


model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix))
print(model)
with torch.no_grad():  # fixed weights instead of random ones
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i)
                .reshape(p.shape) * 0.4)
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)

with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)

for epoch in range(60):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = prepare_sequence(tags, tag_to_ix)
        tag_scores = model(sentence_in)
        loss = loss_function(tag_scores, targets)
        loss.backward()
        optimizer.step()
    if epoch % 20 == 19:
        print(epoch, f"{loss.item():.5f}")

with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
    print(tag_scores.argmax(1))

# the tutorial's first LSTM example: one step at a time, then the whole sequence at once
lstm = nn.LSTM(3, 3)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape)
                * 0.5)
inputs = [torch.tensor([[0.1 * k, -0.2 * k, 0.3]]) for k in range(5)]
hidden = (torch.tensor([[[0.1, 0.2, 0.3]]]), torch.tensor([[[0.3, 0.2, 0.1]]]))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
print(out.detach(), hidden[0].detach())
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (torch.tensor([[[0.1, 0.2, 0.3]]]), torch.tensor([[[0.3, 0.2, 0.1]]]))
out, hidden = lstm(inputs, hidden)
print(out.detach())
print(hidden[1].detach())

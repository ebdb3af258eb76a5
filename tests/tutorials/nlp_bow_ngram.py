# Deep Learning for NLP with PyTorch: Deep Learning Building Blocks (the bag-of-words
# classifier) and Word Embeddings (the N-gram language model, CBOW).
import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
import minitorch.optim as optim

torch.manual_seed(1)

# -- affine maps, non-linearities, softmax --
lin = nn.Linear(5, 3)  # maps from R^5 to R^3, parameters A, b
data = torch.randn(2, 5)
print(lin(data))
data = torch.randn(2, 2)
print(data)
print(F.relu(data))
print(F.elu(data), F.softplus(data))
data = torch.randn(5)
print(data)
print(F.softmax(data, dim=0))
print(F.softmax(data, dim=0).sum())  # sums to 1 because it is a distribution!
print(F.log_softmax(data, dim=0))
print(nn.Softmax(dim=0)(data), nn.LogSoftmax(dim=0)(data))

# -- the bag-of-words classifier --
data = [("me gusta comer en la cafeteria".split(), "SPANISH"),
        ("Give it to me".split(), "ENGLISH"),
        ("No creo que sea una buena idea".split(), "SPANISH"),
        ("No it is not a good idea to get lost at sea".split(), "ENGLISH")]
test_data = [("Yo creo que si".split(), "SPANISH"),
             ("it is lost on me".split(), "ENGLISH")]
word_to_ix = {}
for sent, _ in data + test_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
VOCAB_SIZE = len(word_to_ix)
NUM_LABELS = 2


class BoWClassifier(nn.Module):  # inheriting from nn.Module!
    def __init__(self, num_labels, vocab_size):
        super().__init__()
        self.linear = nn.Linear(vocab_size, num_labels)

    def forward(self, bow_vec):
        return F.log_softmax(self.linear(bow_vec), dim=1)


def make_bow_vector(sentence, word_to_ix):
    vec = torch.zeros(len(word_to_ix))
    for word in sentence:
        vec[word_to_ix[word]] += 1
    return vec.view(1, -1)


def make_target(label, label_to_ix):
    return torch.LongTensor([label_to_ix[label]])


model = BoWClassifier(NUM_LABELS, VOCAB_SIZE)
for param in model.parameters():
    print(param)
with torch.no_grad():
    sample = data[0]
    bow_vector = make_bow_vector(sample[0], word_to_ix)
    log_probs = model(bow_vector)
    print(log_probs)
label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
with torch.no_grad():
    for instance, _label in test_data:
        bow_vec = make_bow_vector(instance, word_to_ix)
        log_probs = model(bow_vec)
        print(log_probs)
print(next(model.parameters())[:, word_to_ix["creo"]])

loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
for _epoch in range(100):
    for instance, label in data:
        model.zero_grad()
        bow_vec = make_bow_vector(instance, word_to_ix)
        target = make_target(label, label_to_ix)
        log_probs = model(bow_vec)
        loss = loss_function(log_probs, target)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    for instance, _label in test_data:
        bow_vec = make_bow_vector(instance, word_to_ix)
        log_probs = model(bow_vec)
        print(log_probs)
print(next(model.parameters())[:, word_to_ix["creo"]])

# -- word embeddings --
torch.manual_seed(1)
word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)  # 2 words in vocab, 5 dimensional embeddings
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed)

CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;""".split()
ngrams = [
    ([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
    for i in range(CONTEXT_SIZE, len(test_sentence))
]
print(ngrams[:3])
vocab = sorted(set(test_sentence))  # sorted: a set's order changes from run to run
word_to_ix = {word: i for i, word in enumerate(vocab)}


class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 128)
        self.linear2 = nn.Linear(128, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
optimizer = optim.SGD(model.parameters(), lr=0.001)
for _epoch in range(5):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    losses.append(total_loss)
print(losses)  # the loss decreased every iteration over the training data!
print(model.embeddings.weight[word_to_ix["beauty"]])

# how close are the learned embeddings?
emb = model.embeddings.weight.detach()
a, b = emb[word_to_ix["thy"]], emb[word_to_ix["Thy"]]
print(F.cosine_similarity(a, b, dim=0), F.cosine_similarity(emb[:3], emb[3:6]))
unit = F.normalize(emb, dim=1)
print(unit.norm(dim=1)[:4], (unit @ unit.T)[0, :4])

# the exercise: CBOW, the sum of the context's embeddings predicts the middle word
raw_text = "We are about to study the idea of a computational process".split()
cbow_ix = {word: i for i, word in enumerate(raw_text)}
cbow = [([raw_text[i - 2], raw_text[i - 1], raw_text[i + 1], raw_text[i + 2]], raw_text[i])
        for i in range(2, len(raw_text) - 2)]
print(cbow[:2])


class CBOW(nn.Module):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear = nn.Linear(embedding_dim, vocab_size)

    def forward(self, inputs):
        return F.log_softmax(self.linear(self.embeddings(inputs).sum(0, keepdim=True)), dim=1)


torch.manual_seed(2)
cbow_model = CBOW(len(raw_text), 6)
optimizer = optim.SGD(cbow_model.parameters(), lr=0.05)
for epoch in range(20):
    total_loss = 0.0
    for context, target in cbow:
        optimizer.zero_grad()
        loss = F.nll_loss(cbow_model(torch.tensor([cbow_ix[w] for w in context])),
                          torch.tensor([cbow_ix[target]]))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    if epoch % 5 == 4:
        print(epoch, round(total_loss, 5))
with torch.no_grad():
    print(cbow_model(torch.tensor([cbow_ix[w] for w in cbow[0][0]])).argmax(1))

# Language Modeling with nn.Transformer (a tiny inline corpus instead of WikiText-2): an
# embedding, sinusoidal positional encoding, a TransformerEncoder with the causal mask and a
# linear decoder, trained for a few steps with Adam, with dropout on (seeded), gradient
# clipping and StepLR; then evaluated, and a few tokens generated greedily.
import math

import minitorch as torch
from minitorch import nn

torch.manual_seed(0)

text = ("the cat sat on the mat . the dog sat on the log . a cat saw a dog . "
        "the dog saw the cat on the mat . a dog sat on a log .").split()
vocab = sorted(set(text))
stoi = {w: i for i, w in enumerate(vocab)}
ntokens = len(vocab)
print("vocab:", ntokens, vocab)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.1):
        super().__init__()
        self.model_type = "Transformer"
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers,
                                                         enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        if src_mask is None:
            src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


def batchify(data, bsz):
    seq_len = data.size(0) // bsz
    data = data[: seq_len * bsz]
    return data.view(bsz, seq_len).t().contiguous()


bptt = 6


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i: i + seq_len]
    target = source[i + 1: i + 1 + seq_len].reshape(-1)
    return data, target


data = torch.tensor([stoi[w] for w in text], dtype=torch.long)
train_data = batchify(data, 3)
print("train_data:", train_data.shape)

model = TransformerModel(ntokens, d_model=16, nhead=2, d_hid=32, nlayers=2, dropout=0.1)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))
print([name for name, _ in model.named_parameters()][:8])

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 2, gamma=0.9)

for epoch in range(1, 5):
    model.train()
    total_loss = 0.0
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        inputs, targets = get_batch(train_data, i)
        output = model(inputs)
        loss = criterion(output.view(-1, ntokens), targets)
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total_loss += loss.item()
        print(f"epoch {epoch} batch {batch} loss {loss.item():.5f} grad norm {norm.item():.5f}")
    scheduler.step()
    mean_loss = total_loss / (batch + 1)
    print(f"epoch {epoch} lr {scheduler.get_last_lr()[0]:.6f} mean loss {mean_loss:.5f}")

model.eval()
with torch.no_grad():
    inputs, targets = get_batch(train_data, 0)
    output = model(inputs)
    eval_loss = criterion(output.view(-1, ntokens), targets).item()
    print(f"eval loss {eval_loss:.5f} ppl {math.exp(eval_loss):.4f}")

    tokens = [stoi["the"]]
    for _ in range(6):
        src = torch.tensor(tokens).unsqueeze(1)
        logits = model(src)[-1, 0]
        tokens.append(int(logits.argmax()))
    print("generated:", " ".join(vocab[t] for t in tokens))

layer = model.transformer_encoder.layers[0]
out, weights = layer.self_attn(*(torch.ones(2, 1, 16),) * 3)
print("attention weights:", weights.shape, weights.sum(-1))

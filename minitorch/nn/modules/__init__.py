"""The layers of ``minitorch.nn``, one module per family as in PyTorch."""

from minitorch.nn.modules.activation import LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from minitorch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d
from minitorch.nn.modules.container import ModuleDict, ModuleList, Sequential
from minitorch.nn.modules.conv import Conv2d
from minitorch.nn.modules.dropout import Dropout
from minitorch.nn.modules.flatten import Flatten
from minitorch.nn.modules.linear import Identity, Linear
from minitorch.nn.modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
)
from minitorch.nn.modules.module import Module
from minitorch.nn.modules.pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool2d,
    MaxPool2d,
)
from minitorch.nn.modules.rnn import (
    GRU,
    LSTM,
    RNN,
    GRUCell,
    LSTMCell,
    RNNBase,
    RNNCell,
    RNNCellBase,
)
from minitorch.nn.modules.sparse import Embedding

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict", "Linear", "Identity", "Conv2d",
    "MaxPool2d", "AvgPool2d", "Flatten", "ReLU", "LeakyReLU", "Sigmoid", "Tanh", "Softmax",
    "LogSoftmax", "Dropout", "BatchNorm1d", "BatchNorm2d", "Embedding", "L1Loss", "MSELoss",
    "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "CrossEntropyLoss",
    "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
]

# issue 26's layers; the rest of PyTorch's activations, Unflatten, ParameterList and
# ParameterDict
from minitorch.nn.modules.activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LogSigmoid,
    Mish,
    PReLU,
    ReLU6,
    RReLU,
    SiLU,
    Softmax2d,
    Softmin,
    Softplus,
    Softshrink,
    Softsign,
    Tanhshrink,
    Threshold,
)
from minitorch.nn.modules.container import ParameterDict, ParameterList
from minitorch.nn.modules.conv import Conv1d, ConvTranspose2d
from minitorch.nn.modules.distance import CosineSimilarity, PairwiseDistance
from minitorch.nn.modules.dropout import (
    AlphaDropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)
from minitorch.nn.modules.flatten import Unflatten
from minitorch.nn.modules.fold import Fold, Unfold
from minitorch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from minitorch.nn.modules.linear import Bilinear
from minitorch.nn.modules.loss import HuberLoss, KLDivLoss, SmoothL1Loss
from minitorch.nn.modules.normalization import GroupNorm, LayerNorm, LocalResponseNorm
from minitorch.nn.modules.padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from minitorch.nn.modules.pixelshuffle import PixelShuffle, PixelUnshuffle
from minitorch.nn.modules.pooling import AvgPool1d, MaxPool1d
from minitorch.nn.modules.upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d

__all__ += ["GELU", "SiLU", "Conv1d", "ConvTranspose2d", "KLDivLoss", "SmoothL1Loss",
            "HuberLoss", "LayerNorm", "GroupNorm", "Upsample"]

__all__ += ["Softplus", "ELU", "CELU", "SELU", "Mish", "Hardsigmoid", "Hardswish", "Hardtanh",
            "ReLU6", "LogSigmoid", "Softsign", "Tanhshrink", "Unflatten", "ParameterList",
            "ParameterDict"]

# padding layers, CosineSimilarity and PairwiseDistance
__all__ += ["ZeroPad1d", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ReflectionPad1d",
            "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "CosineSimilarity",
            "PairwiseDistance"]

# attention and the Transformer, RMSNorm
from minitorch.nn.modules.attention import MultiheadAttention  # noqa: E402
from minitorch.nn.modules.normalization import RMSNorm  # noqa: E402
from minitorch.nn.modules.transformer import (  # noqa: E402
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

__all__ += ["MultiheadAttention", "RMSNorm", "Transformer", "TransformerEncoder",
            "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer"]


# the other losses: margins, embeddings, triplets, Gaussian and Poisson NLL, CTC
from minitorch.nn.modules.loss import (  # noqa: E402
    CosineEmbeddingLoss,
    CTCLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss2d,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)

__all__ += ["CosineEmbeddingLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
            "MultiLabelSoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss",
            "TripletMarginLoss", "TripletMarginWithDistanceLoss", "GaussianNLLLoss",
            "PoissonNLLLoss", "CTCLoss", "NLLLoss2d"]


# threshold, the shrinks, Softmin, Softmax2d, GLU, PReLU, channel dropout, pixel shuffle,
# the 3d and circular pads, the 1-d pools, the old upsampling layers, Bilinear, instance
# norm, local response norm, Fold and Unfold, RReLU
__all__ += ["Threshold", "Hardshrink", "Softshrink", "Softmin", "Softmax2d", "GLU", "PReLU",
            "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
            "PixelShuffle", "PixelUnshuffle", "ConstantPad3d", "ZeroPad3d", "ReflectionPad3d",
            "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d", "MaxPool1d",
            "AvgPool1d", "UpsamplingNearest2d", "UpsamplingBilinear2d", "Bilinear",
            "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm", "Fold",
            "Unfold", "RReLU"]

# torchnn task: nn.ChannelShuffle
from minitorch.nn.modules.pixelshuffle import ChannelShuffle  # noqa: E402

__all__ += ["ChannelShuffle"]
# 3-d and transposed convolutions, 3-d pools, unpooling, power-average pools (task nn3d)
from minitorch.nn.modules.batchnorm import BatchNorm3d  # noqa: E402
from minitorch.nn.modules.conv import Conv3d, ConvTranspose1d, ConvTranspose3d  # noqa: E402
from minitorch.nn.modules.pooling import (  # noqa: E402
    AdaptiveAvgPool3d,
    AdaptiveMaxPool3d,
    AvgPool3d,
    FractionalMaxPool2d,
    FractionalMaxPool3d,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)

__all__ += ["Conv3d", "ConvTranspose1d", "ConvTranspose3d", "MaxPool3d", "AvgPool3d",
            "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "BatchNorm3d", "MaxUnpool1d", "MaxUnpool2d",
            "MaxUnpool3d", "LPPool1d", "LPPool2d", "LPPool3d", "FractionalMaxPool2d",
            "FractionalMaxPool3d"]
# nn misc: EmbeddingBag
from minitorch.nn.modules.sparse import EmbeddingBag  # noqa: E402

__all__ += ["EmbeddingBag"]

# nn misc: the lazy modules
from minitorch.nn.modules.lazy import (  # noqa: E402
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    LazyConv1d,
    LazyConv2d,
    LazyConv3d,
    LazyInstanceNorm1d,
    LazyInstanceNorm2d,
    LazyInstanceNorm3d,
    LazyLinear,
)

__all__ += ["LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyBatchNorm1d",
            "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
            "LazyInstanceNorm3d"]

# nnextra: the lazy transposed convolutions
from minitorch.nn.modules.lazy import (  # noqa: E402
    LazyConvTranspose1d,
    LazyConvTranspose2d,
    LazyConvTranspose3d,
)

__all__ += ["LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"]

# nnextra: the adaptive softmax
from minitorch.nn.modules.adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: E402

__all__ += ["AdaptiveLogSoftmaxWithLoss"]

# DataParallel (the CPU's: it calls the module it holds)
from minitorch.nn.modules.container import DataParallel  # noqa: E402

__all__ += ["DataParallel"]

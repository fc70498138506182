# A package of the project for input-extension-project.py (mmcv's ops): its modules load the
# project's compiled extension, and the package re-exports their functions.
from .focal_loss import sigmoid_focal_loss
from .plain_ops import scale

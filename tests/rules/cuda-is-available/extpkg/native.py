# An op module that imports the extension (detectron2's `from detectron2 import _C`).
from extpkg import _C


def nms_rotated(boxes, scores):
    return _C.nms_rotated(boxes, scores)

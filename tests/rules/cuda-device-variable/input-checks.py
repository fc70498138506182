"""A literal chosen by a CUDA device check that stays is not rewritten alone."""


def pick(device, args):
    dev = 'cuda' if 'cuda' in device else 'cpu'  # expect: cuda-device-variable:report -- the test stays
    other = "cuda" if device.startswith("cuda") else "cpu"  # expect: cuda-device-variable:report
    if str(device) == "cuda:0":
        chosen_dev = "cuda"  # expect: cuda-device-variable:report
    # The user's option is not a device check (RULES.md 6, item 34): the literal is rewritten.
    opt = "cuda" if args.cuda else "cpu"  # expect: cuda-device-variable:safe
    return dev, other, chosen_dev, opt

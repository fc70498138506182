from unittest import mock
from unittest.mock import patch


@patch("torch.accelerator.empty_cache")  # expect: cuda-mock-memory-target:unsafe -- torch.accelerator.empty_cache is 2.9
def test_cleanup(empty_cache):
    pass


def test_memory(monkeypatch, mocker):
    monkeypatch.setattr("torch.accelerator.memory_allocated", lambda *a: 0)  # expect: cuda-mock-memory-target:unsafe -- the memory submodule spelling
    mocker.patch("pkg.utils.torch.accelerator.max_memory_allocated", return_value=1)  # expect: cuda-mock-memory-target:unsafe
    with mock.patch("torch.accelerator.reset_peak_memory_stats"):  # expect: cuda-mock-memory-target:unsafe
        pass


# Negatives.
patch("torch.cuda.memory_summary")  # not rewritten
patch("torch.cuda.memory._record_memory_history")
patch("torch.cuda.mem_get_info", return_value=(1, 2))  # cuda-mock-patch's: no accelerator target

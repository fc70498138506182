# mmcv's ext_loader, as a module of the project.
import importlib


class ext_loader:
    @staticmethod
    def load_ext(name, funcs):
        return importlib.import_module("extpkg." + name)

"""Package lookup of the stand-in: `gamebot` resolves to the install prefix
given by the recorder (a colcon install, or the repository laid out like
one); any other package to a placeholder under /opt/ros/jazzy that the
checks recognise as external."""

import os

EXTERNAL_PREFIX = "/opt/ros/jazzy"


class PackageNotFoundError(KeyError):
    pass


def _prefix(package):
    if package == "gamebot":
        prefix = os.environ.get("GAMEBOT_STANDIN_PREFIX")
        if not prefix:
            raise PackageNotFoundError("GAMEBOT_STANDIN_PREFIX is not set (stand-in)")
        return prefix
    return EXTERNAL_PREFIX


def get_package_prefix(package):
    return _prefix(package)


def get_package_share_directory(package):
    if package == "gamebot" and os.environ.get("GAMEBOT_STANDIN_SHARE"):
        return os.environ["GAMEBOT_STANDIN_SHARE"]
    return os.path.join(_prefix(package), "share", package)

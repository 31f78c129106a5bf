"""Scale-out on a Ray cluster (``--ray``, issue 24); see docs/cluster.md.

Importing this package does not import Ray: ``RayWorkers`` does when it connects.
"""

from .backend import SPECIAL_ADDRESSES, ClusterError, RayWorkers, import_ray

__all__ = ["SPECIAL_ADDRESSES", "ClusterError", "RayWorkers", "import_ray"]

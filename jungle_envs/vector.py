"""Deprecated: the process-based vector env moved to ``jungle_envs.process_vector_env``.

Kept so that ``from jungle_envs.vector import BatchedVectorEnv`` goes on working (with a
``DeprecationWarning``) until 0.4.
"""

import warnings

from jungle_envs.process_vector_env import BatchedVectorEnv, EnvBatch

warnings.warn(
    "jungle_envs.vector is deprecated; import BatchedVectorEnv from jungle_envs.process_vector_env",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["BatchedVectorEnv", "EnvBatch"]

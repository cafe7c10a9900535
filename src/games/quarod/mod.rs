//! Quarod (placeholder: the engine is being written).

//! Vadrantir (placeholder: the engine is being written).

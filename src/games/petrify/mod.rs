//! Petrify (placeholder: the engine is being written).

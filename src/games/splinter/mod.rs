//! Splinter Quad (placeholder: the engine is being written).

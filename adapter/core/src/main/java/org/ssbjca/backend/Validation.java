package org.ssbjca.backend;

/** What the broker checks in a message body, as in {@code CREATE MESSAGE TYPE ... VALIDATION = ...}. */
public enum Validation {
    /** Any body, or none. */
    NONE,
    /** No body at all. */
    EMPTY,
    /** A well-formed XML document. */
    WELL_FORMED_XML
}

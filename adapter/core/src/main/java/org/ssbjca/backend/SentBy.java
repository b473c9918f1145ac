package org.ssbjca.backend;

/** Which side of a dialog may send a message type, as in {@code CREATE CONTRACT ... SENT BY ...}. */
public enum SentBy {
    /** Only the side that began the dialog. */
    INITIATOR,
    /** Only the other side. */
    TARGET,
    /** Either side. */
    ANY;

    /**
     * Returns whether this rule lets that side send.
     *
     * @param initiator whether the sender is the initiator
     */
    public boolean allows(boolean initiator) {
        return this == ANY || (this == INITIATOR) == initiator;
    }
}

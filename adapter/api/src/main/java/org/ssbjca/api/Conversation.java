package org.ssbjca.api;

import java.io.Serializable;
import java.util.Objects;
import java.util.UUID;

/**
 * One side of a dialog: its conversation handle, and when known the conversation id (shared by both sides) and the
 * conversation group this side belongs to. Immutable.
 *
 * <p>The handle is what every verb needs; it is only meaningful in the database that holds this side of the dialog.
 * Equality is by handle.
 */
public final class Conversation implements Serializable {

    private static final long serialVersionUID = 1L;

    private final UUID handle;
    private final UUID conversationId;
    private final UUID conversationGroupId;

    /**
     * @param handle the conversation handle, never null
     * @param conversationId the conversation id, or null if unknown
     * @param conversationGroupId the conversation group of this side, or null if unknown
     */
    public Conversation(UUID handle, UUID conversationId, UUID conversationGroupId) {
        this.handle = Objects.requireNonNull(handle, "handle");
        this.conversationId = conversationId;
        this.conversationGroupId = conversationGroupId;
    }

    /**
     * Returns a conversation that knows only its handle.
     *
     * @param handle a conversation handle, for example one stored by the application
     */
    public static Conversation ofHandle(UUID handle) {
        return new Conversation(handle, null, null);
    }

    /** Returns the conversation handle of this side. */
    public UUID handle() {
        return handle;
    }

    /** Returns the conversation id shared by both sides, or null when it was not known where this value was made. */
    public UUID conversationId() {
        return conversationId;
    }

    /** Returns the conversation group of this side, or null when it was not known where this value was made. */
    public UUID conversationGroupId() {
        return conversationGroupId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Conversation && ((Conversation) o).handle.equals(handle);
    }

    @Override
    public int hashCode() {
        return handle.hashCode();
    }

    @Override
    public String toString() {
        return "Conversation[handle=" + handle + ", id=" + conversationId + ", group=" + conversationGroupId + "]";
    }
}

package org.ssbjca.api;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A message scheduled by {@link ServiceBrokerConnection#sendAt} or by the {@code send} that takes a delay: its id and
 * the instant it is due. Immutable; equality is by id. Store it (or its id) to cancel the send later with
 * {@link ServiceBrokerConnection#cancel(ScheduledSend)}, from any connection to the same database.
 */
public final class ScheduledSend implements Serializable {

    private static final long serialVersionUID = 1L;

    private final UUID id;
    private final Instant dueAt;

    /**
     * @param id the scheduled send's id, never null
     * @param dueAt when it is due, or null when not known where this value was made ({@link #ofId})
     */
    public ScheduledSend(UUID id, Instant dueAt) {
        this.id = Objects.requireNonNull(id, "id");
        this.dueAt = dueAt;
    }

    /**
     * Returns a handle that knows only its id: enough to cancel.
     *
     * @param id an id the application stored
     */
    public static ScheduledSend ofId(UUID id) {
        return new ScheduledSend(id, null);
    }

    /** Returns the id, unique in the database. */
    public UUID id() {
        return id;
    }

    /** Returns the instant the message is due, by the database's clock for a delay; null if not known. */
    public Instant dueAt() {
        return dueAt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScheduledSend && ((ScheduledSend) o).id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "ScheduledSend[id=" + id + ", dueAt=" + dueAt + "]";
    }
}

package org.ssbjca.backend;

import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The broker id the adapter saw first on one database, and the refusals of a broker that cannot serve it: disabled,
 * or with another id than the one seen first (while this adapter runs: nothing is kept across restarts). Thread safe.
 */
public final class BrokerIdentity {

    private final AtomicReference<UUID> seen = new AtomicReference<>();
    private final boolean applies;

    /** @param applies whether the database has a broker state to read (SQL Server), else every check passes */
    public BrokerIdentity(boolean applies) {
        this.applies = applies;
    }

    /** Returns whether the database has a broker state to read: false on the portable schema. */
    public boolean applies() {
        return applies;
    }

    /**
     * Checks that the broker is enabled and is still the one seen first.
     *
     * @param state the broker as read now
     * @throws IllegalStateException if it is disabled or its id is not the one seen first, saying what to run
     */
    public void require(BrokerState state) {
        String refusal = refusal(state);
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
    }

    /**
     * Returns why it cannot serve the adapter, with what to run, or null; remembers its id when it is the first.
     *
     * @param state the broker as read now
     */
    public String refusal(BrokerState state) {
        if (!state.enabled()) {
            return disabled(state.database());
        }
        if (state.brokerId() == null) {
            return null;
        }
        UUID first = seen.updateAndGet(s -> s == null ? state.brokerId() : s);
        return Objects.equals(first, state.brokerId()) ? null : changed(state.database(), first, state.brokerId());
    }

    /** Returns the id seen first, or null. */
    public UUID seen() {
        return seen.get();
    }

    static String disabled(String database) {
        String db = bracket(database);
        return "Service Broker is disabled in database " + db + " (sys.databases.is_broker_enabled = 0, the state"
                + " after a RESTORE or ATTACH): no message is delivered. Run ALTER DATABASE " + db
                + " SET ENABLE_BROKER WITH ROLLBACK IMMEDIATE: it keeps the broker id and every conversation, and"
                + " needs the database to itself (ROLLBACK IMMEDIATE rolls back other sessions' transactions). If it"
                + " fails with error 9772 (another database of the instance has the same broker id: a copy restored"
                + " beside its original), run ALTER DATABASE " + db + " SET NEW_BROKER WITH ROLLBACK IMMEDIATE"
                + " instead: a new broker id, and every conversation of the database ended at once without a message"
                + " to the other side (routes naming the old id must be changed); or SET ERROR_BROKER_CONVERSATIONS,"
                + " which ends them with an error the other side receives (docs/operations/broker-doctor.md)";
    }

    static String changed(String database, UUID first, UUID now) {
        String db = bracket(database);
        return "the Service Broker id of database " + db + " changed from " + first + " to " + now + " while the"
                + " adapter ran (ALTER DATABASE SET NEW_BROKER, or another copy of the database restored in its"
                + " place): the conversations begun before were ended, and routes and peers that name the old id"
                + " (CREATE ROUTE ... BROKER_INSTANCE) no longer reach it. Check that " + db + " is the database"
                + " meant; update the routes (ALTER ROUTE ... WITH BROKER_INSTANCE = '" + now + "'); then redeploy the"
                + " adapter to accept the new id (docs/operations/broker-doctor.md)";
    }

    private static String bracket(String database) {
        return "[" + database.replace("]", "]]") + "]";
    }
}

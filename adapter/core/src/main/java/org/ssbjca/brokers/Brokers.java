package org.ssbjca.brokers;

import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.portable.PortableBroker;
import org.ssbjca.backend.portable.PortableOptions;
import org.ssbjca.backend.sqlserver.SqlServerBroker;

/** Creates the {@link Broker} for a database, by the backend its URL selects. */
public final class Brokers {

    private Brokers() {
    }

    /**
     * Returns a new broker; close it when done.
     *
     * @param source where the database is
     * @param runner runs long-lived background tasks (notification listeners)
     * @param portableOptions timing of the portable backends
     */
    public static Broker create(ConnectionSource source, BackgroundRunner runner, PortableOptions portableOptions) {
        return switch (source.config().kind()) {
            case SQLSERVER -> new SqlServerBroker(source, runner);
            default -> new PortableBroker(source, runner, portableOptions);
        };
    }
}

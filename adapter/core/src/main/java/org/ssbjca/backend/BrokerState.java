package org.ssbjca.backend;

import java.util.UUID;

/**
 * A database's Service Broker as {@code sys.databases} shows it.
 *
 * @param database the database's name
 * @param enabled {@code is_broker_enabled}: whether messages are delivered (0 after a RESTORE or ATTACH of a database
 *     whose broker id another database of the instance may have)
 * @param brokerId {@code service_broker_guid}, or null where there is none (the portable schema)
 */
public record BrokerState(String database, boolean enabled, UUID brokerId) {

    /** The portable schema's broker: always enabled, no id. */
    public static final BrokerState PORTABLE = new BrokerState("", true, null);
}

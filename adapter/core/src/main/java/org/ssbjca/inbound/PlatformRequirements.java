package org.ssbjca.inbound;

import org.ssbjca.backend.Platform;

/**
 * What an activation needs of its database's server ({@link Platform}), checked when it starts (the database
 * reachable) or else when its readers first connect: a configuration that cannot work there is refused with what to
 * do, instead of failing delivery after delivery.
 */
public final class PlatformRequirements {

    private PlatformRequirements() {
    }

    /**
     * Returns why a table activation cannot run there, or null: a transacted bean needs XA.
     *
     * @param platform the database's server
     * @param bean the activation, {@code Bean@table}
     * @param transacted whether the bean's {@code onRow} runs in the container's transaction
     */
    public static String tableRefusal(Platform platform, String bean, boolean transacted) {
        if (!transacted || platform.xa()) {
            return null;
        }
        return "the table activation " + bean + " cannot run on " + platform.name() + ": its onRow runs in a"
                + " container-managed transaction (REQUIRED), which enlists the reader's connection in XA, and "
                + platform.name() + " has no XA (no MS DTC). Make onRow @TransactionAttribute(NOT_SUPPORTED): the"
                + " row's taking and the bean's SQL on ServiceBrokerConnection.jdbcConnection() then commit together"
                + " in the reader's local transaction (docs/guide/table-queues.md: Table queues on Azure SQL"
                + " Database)";
    }

    /**
     * Returns why a Service Broker queue activation cannot run there, or null.
     *
     * @param platform the database's server
     * @param bean the activation, {@code Bean@queue}
     */
    static String queueRefusal(Platform platform, String bean) {
        if (platform.serviceBroker()) {
            return null;
        }
        return "the queue activation " + bean + " cannot run on " + platform.name() + ": it has no Service"
                + " Broker. Use Azure SQL Managed Instance or SQL Server, or feed the bean from a table of your own"
                + " (TableActivationSpec, docs/guide/table-queues.md)";
    }
}

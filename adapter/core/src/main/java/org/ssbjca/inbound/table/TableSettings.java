package org.ssbjca.inbound.table;

import jakarta.resource.spi.InvalidPropertyException;
import java.util.Locale;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.table.ColumnRole;
import org.ssbjca.backend.table.TableDefinition;
import org.ssbjca.inbound.ActivationValues;
import org.ssbjca.inbound.BreakerSettings;
import org.ssbjca.inbound.DeliverySettings;
import org.ssbjca.inbound.FailurePolicy;
import org.ssbjca.support.Backoff;

/**
 * A table activation's properties, parsed and checked ({@link TableActivationSpec}): every bad value refused with an
 * {@link InvalidPropertyException} naming the property, what it accepts and the text given.
 */
final class TableSettings {

    final TableDefinition definition;
    final DatabaseConfig database;
    final int batchSize;
    final int maxReaders;
    final long pollMillis;
    final int retryDelaySeconds;
    final int transactionTimeoutSeconds;
    final long reconnectInitialMillis;
    final long reconnectMaxMillis;
    final double reconnectJitter;
    final FailurePolicy failurePolicy;
    final BreakerSettings breaker;

    /**
     * @param spec the activation spec
     * @param loaders where the exception classes its failure policy names may be; none to check their spelling
     *        only (validation, before the bean's class loader is known)
     * @throws InvalidPropertyException naming a bad property
     */
    TableSettings(TableActivationSpec spec, ClassLoader... loaders) throws InvalidPropertyException {
        TableDefinition.Mode mode;
        String m = spec.getMode() == null ? "" : spec.getMode().trim().toUpperCase(Locale.ROOT);
        try {
            mode = TableDefinition.Mode.valueOf(m);
        } catch (IllegalArgumentException e) {
            throw invalid("mode", "must be transactional or leased, was '" + spec.getMode() + "'");
        }
        int lease = (int) whole("leaseSeconds", spec.getLeaseSeconds(), 1, 86_400);
        int attempts = (int) whole("maxAttempts", spec.getMaxAttempts(), 0, 1000);
        try {
            definition = TableDefinition.table(spec.getTable()).mode(mode)
                    .column(ColumnRole.KEY, spec.getKeyColumn()).column(ColumnRole.PAYLOAD, spec.getPayloadColumn())
                    .column(ColumnRole.PRIORITY, spec.getPriorityColumn())
                    .column(ColumnRole.AVAILABLE, spec.getAvailableColumn())
                    .column(ColumnRole.ORDER, spec.getOrderColumn()).column(ColumnRole.DONE, spec.getDoneColumn())
                    .column(ColumnRole.LEASE, spec.getLeaseColumn()).column(ColumnRole.MARK, spec.getMarkColumn())
                    .column(ColumnRole.ATTEMPTS, spec.getAttemptsColumn())
                    .column(ColumnRole.ERROR, spec.getErrorColumn())
                    .column(ColumnRole.ERROR_TIME, spec.getErrorTimeColumn()).leaseSeconds(lease).maxAttempts(attempts)
                    .build();
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
        try {
            database = spec.database();
        } catch (IllegalArgumentException e) {
            throw invalid("connectionUrl", e.getMessage());
        }
        batchSize = (int) whole("batchSize", spec.getBatchSize(), 1, 1000);
        maxReaders = (int) whole("maxReaders", spec.getMaxReaders(), DeliverySettings.MIN_READERS,
                DeliverySettings.MAX_READERS);
        pollMillis = whole("pollMillis", spec.getPollMillis(), 10, 600_000);
        retryDelaySeconds = (int) whole("retryDelaySeconds", spec.getRetryDelaySeconds(), 0, 3600);
        transactionTimeoutSeconds = (int) whole("transactionTimeout", spec.getTransactionTimeout(), 0, 86_400);
        reconnectInitialMillis = whole("reconnectInitialMillis", spec.getReconnectInitialMillis(), 10, 600_000);
        reconnectMaxMillis = whole("reconnectMaxMillis", spec.getReconnectMaxMillis(), reconnectInitialMillis,
                3_600_000);
        reconnectJitter = ActivationValues.decimal(TableActivationSpec.class, "reconnectJitter",
                spec.getReconnectJitter(), 0, 1);
        failurePolicy = spec.failurePolicy(loaders);
        // a table is not a Service Broker queue: no poison detection to stay under
        breaker = spec.breaker(false);
    }

    /** Returns a reader's waits between failed turns, from the {@code reconnect*} properties. */
    Backoff newBackoff() {
        return new Backoff(reconnectInitialMillis, reconnectMaxMillis, reconnectJitter);
    }

    private static long whole(String name, String text, long min, long max) throws InvalidPropertyException {
        return ActivationValues.whole(TableActivationSpec.class, name, text, min, max);
    }

    /** @param message "property: why", as {@link TableDefinition} words it */
    private static InvalidPropertyException invalid(String message) {
        int colon = message.indexOf(':');
        return invalid(message.substring(0, colon), message.substring(colon + 1).trim());
    }

    private static InvalidPropertyException invalid(String property, String why) {
        return ActivationValues.invalid(TableActivationSpec.class, property, why);
    }
}

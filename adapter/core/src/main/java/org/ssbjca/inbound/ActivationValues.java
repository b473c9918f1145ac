package org.ssbjca.inbound;

import jakarta.resource.spi.InvalidPropertyException;
import java.util.Locale;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.brokers.Config;
import org.ssbjca.inbound.ServiceBrokerActivationSpec.DeadLetter;
import org.ssbjca.inbound.ServiceBrokerActivationSpec.SystemMessages;

/**
 * The typed values of an activation spec's properties: each parses its text (the container sets them as text, from
 * {@code @ActivationConfigProperty} or a deployment descriptor) and refuses what is not a value of its type or not
 * in its range, with an {@link InvalidPropertyException} naming the property, what it accepts and the text given.
 */
public final class ActivationValues {

    private final ServiceBrokerActivationSpec spec;

    ActivationValues(ServiceBrokerActivationSpec spec) {
        this.spec = spec;
    }

    /**
     * Parses every property, so that a deployment with a bad value fails naming it.
     *
     * @throws InvalidPropertyException naming the first property that is missing, of the wrong type or out of range
     */
    void validate() throws InvalidPropertyException {
        if (Config.blankToNull(spec.getQueue()) == null) {
            throw invalid("queue", "is required: the name of the queue to read");
        }
        DatabaseConfig database;
        try {
            database = spec.database();
        } catch (IllegalArgumentException e) {
            throw invalid("connectionUrl", e.getMessage());
        }
        maxReaders();
        receiveBatchSize();
        waitTimeoutMillis();
        int attempts = maxDeliveryAttempts();
        if (database.kind() == BackendKind.SQLSERVER && attempts >= 5) {
            throw invalid("maxDeliveryAttempts", "must be between 1 and 4 on SQL Server (it disables a queue after "
                    + "5 rolled-back RECEIVEs in a row), was " + attempts);
        }
        deadLetterMode();
        deadLetterService();
        systemMessages();
        priorityEnabled();
        reconnectMaxMillis();
        reconnectJitter();
        transactionTimeoutSeconds();
        commitBeforeDelivery();
        redeliveryPolicy();
        failurePolicy(); // the names' spelling: the classes are looked for when the bean's loader is known
        breaker(database.kind() == BackendKind.SQLSERVER);
    }

    /**
     * Returns the circuit breaker's settings.
     *
     * @param sqlServer whether the queue is SQL Server's
     */
    BreakerSettings breaker(boolean sqlServer) throws InvalidPropertyException {
        return spec.breaker(sqlServer);
    }

    /**
     * Returns what each failure means.
     *
     * @param loaders where the exception classes may be (nulls skipped)
     */
    FailurePolicy failurePolicy(ClassLoader... loaders) throws InvalidPropertyException {
        return spec.failurePolicy(loaders);
    }

    /** Returns the service that also receives each dead letter, or null. */
    String deadLetterService() throws InvalidPropertyException {
        String name = Config.blankToNull(spec.getDeadLetterService());
        if (name != null && (name.length() > 256 || !name.equals(name.strip()))) {
            throw invalid("deadLetterService", "must be a service name of at most 256 characters without surrounding"
                    + " spaces, was '" + name + "'");
        }
        return name;
    }

    /** The longest redelivery delay, in milliseconds (one day). */
    static final long MAX_REDELIVERY_DELAY = 86_400_000;

    /** Returns how long a group waits after a failed delivery. */
    RedeliveryPolicy redeliveryPolicy() throws InvalidPropertyException {
        long delay = whole("redeliveryDelay", spec.getRedeliveryDelay(), 0, MAX_REDELIVERY_DELAY);
        double multiplier = decimal("redeliveryMultiplier", spec.getRedeliveryMultiplier(), 1, 100);
        String max = Config.blankToNull(spec.getMaxRedeliveryDelay());
        long longest = max == null ? Math.min(delay * 10, MAX_REDELIVERY_DELAY)
                : whole("maxRedeliveryDelay", max, delay, MAX_REDELIVERY_DELAY);
        double jitter = decimal("redeliveryJitter", spec.getRedeliveryJitter(), 0, 1);
        return new RedeliveryPolicy(delay, multiplier, longest, jitter);
    }

    /** Returns the number of readers, 1 to 256. */
    int maxReaders() throws InvalidPropertyException {
        return (int) whole("maxReaders", spec.getMaxReaders(), DeliverySettings.MIN_READERS,
                DeliverySettings.MAX_READERS);
    }

    /** Returns RECEIVE TOP (n), 1 to 10000. */
    int receiveBatchSize() throws InvalidPropertyException {
        return (int) whole("receiveBatchSize", spec.getReceiveBatchSize(), DeliverySettings.MIN_BATCH,
                DeliverySettings.MAX_BATCH);
    }

    /** Returns the WAITFOR timeout in milliseconds. */
    long waitTimeoutMillis() throws InvalidPropertyException {
        return whole("waitTimeout", spec.getWaitTimeout(), DeliverySettings.MIN_WAIT, DeliverySettings.MAX_WAIT);
    }

    /** Returns failed deliveries of one message before it is dead-lettered. */
    int maxDeliveryAttempts() throws InvalidPropertyException {
        return (int) whole("maxDeliveryAttempts", spec.getMaxDeliveryAttempts(), 1, 100);
    }

    /** Returns whether groups with a priority are taken first. */
    boolean priorityEnabled() throws InvalidPropertyException {
        return bool("priorityEnabled", spec.getPriorityEnabled());
    }

    /** Returns the first reconnect delay in milliseconds. */
    long reconnectInitialMillis() throws InvalidPropertyException {
        return whole("reconnectInitialMillis", spec.getReconnectInitialMillis(), 10, 600_000);
    }

    /** Returns the longest reconnect delay in milliseconds. */
    long reconnectMaxMillis() throws InvalidPropertyException {
        return whole("reconnectMaxMillis", spec.getReconnectMaxMillis(), reconnectInitialMillis(), 3_600_000);
    }

    /** Returns the random reduction of each reconnect delay, 0.0 to 1.0. */
    double reconnectJitter() throws InvalidPropertyException {
        return decimal("reconnectJitter", spec.getReconnectJitter(), 0, 1);
    }

    /** Returns the delivery transaction timeout in seconds, 0 for the container's default. */
    int transactionTimeoutSeconds() throws InvalidPropertyException {
        return (int) whole("transactionTimeout", spec.getTransactionTimeout(), 0, 86_400);
    }

    /** Returns whether the RECEIVE commits before delivery. */
    boolean commitBeforeDelivery() throws InvalidPropertyException {
        return bool("commitBeforeDelivery", spec.getCommitBeforeDelivery());
    }

    private static long whole(String name, String text, long min, long max) throws InvalidPropertyException {
        return whole(ServiceBrokerActivationSpec.class, name, text, min, max);
    }

    /**
     * Parses a whole-number property within a range.
     *
     * @param spec the activation spec class the property belongs to
     * @param name the property
     * @param text the text given
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the value
     * @throws InvalidPropertyException naming the property, the range and the text given
     */
    public static long whole(Class<?> spec, String name, String text, long min, long max)
            throws InvalidPropertyException {
        long value;
        try {
            value = Long.parseLong(text == null ? "" : text.trim());
        } catch (NumberFormatException e) {
            throw invalid(spec, name, "must be a whole number between " + min + " and " + max + ", was '" + text
                    + "'");
        }
        if (value < min || value > max) {
            throw invalid(spec, name, "must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    private static double decimal(String name, String text, double min, double max) throws InvalidPropertyException {
        return decimal(ServiceBrokerActivationSpec.class, name, text, min, max);
    }

    /**
     * Parses a decimal property within a range.
     *
     * @param spec the activation spec class the property belongs to
     * @param name the property
     * @param text the text given
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the value
     * @throws InvalidPropertyException naming the property, the range and the text given
     */
    public static double decimal(Class<?> spec, String name, String text, double min, double max)
            throws InvalidPropertyException {
        double value;
        try {
            value = Double.parseDouble(text == null ? "" : text.trim());
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value >= min && value <= max)) { // NaN fails both
            throw invalid(spec, name, "must be a number between " + min + " and " + max + ", was '" + text + "'");
        }
        return value;
    }

    private static boolean bool(String name, String text) throws InvalidPropertyException {
        String t = text == null ? "" : text.trim();
        if (t.equalsIgnoreCase("true")) {
            return true;
        }
        if (t.equalsIgnoreCase("false")) {
            return false;
        }
        throw invalid(name, "must be true or false, was '" + text + "'");
    }

    private static InvalidPropertyException invalid(String property, String why) {
        return invalid(ServiceBrokerActivationSpec.class, property, why);
    }

    /**
     * Returns the exception, its message naming the property.
     *
     * @param spec the activation spec class the property belongs to
     * @param property the property
     * @param why what it accepts and what was given
     */
    public static InvalidPropertyException invalid(Class<?> spec, String property, String why) {
        InvalidPropertyException e = new InvalidPropertyException("ssb-jca activation property '" + property + "' "
                + why);
        try {
            e.setInvalidPropertyDescriptors(new java.beans.PropertyDescriptor[] {
                new java.beans.PropertyDescriptor(property, spec)
            });
        } catch (java.beans.IntrospectionException ignored) {
            // the message names the property already
        }
        return e;
    }

    /** Returns the dead-letter behaviour. */
    DeadLetter deadLetterMode() throws InvalidPropertyException {
        try {
            return DeadLetter.valueOf(spec.getDeadLetter().trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw invalid("deadLetter", "must be TABLE or TABLE_AND_END_CONVERSATION, was " + spec.getDeadLetter());
        }
    }

    /** Returns what readers do with EndDialog and Error. */
    SystemMessages systemMessages() throws InvalidPropertyException {
        try {
            return SystemMessages.valueOf(spec.getHandleSystemMessages().trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw invalid("handleSystemMessages", "must be END or DELIVER, was " + spec.getHandleSystemMessages());
        }
    }
}

package org.ssbjca.inbound;

import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;

/**
 * The failure-policy and circuit-breaker properties, written once for both activation specs: the queue's
 * {@link ServiceBrokerActivationSpec} and the table's {@code TableActivationSpec} extend this class.
 *
 * <p>It does not implement {@code ActivationSpec}, on purpose: IronJacamar attaches a {@code @ConfigProperty} of a
 * class that is not an activation spec to every {@code @Activation} class extending it, whereas one declared on an
 * activation spec class belongs to that class alone. See docs/design/shared-activation-properties.md.
 *
 * <p>Not thread safe: the container sets the properties, then validates, before any reader starts.
 */
public abstract class FailureProperties {

    @ConfigProperty(description = "Exception classes (fully qualified, comma-separated; subclasses match) whose "
            + "failure sets the message aside at once, without retries; looked for along the cause chain",
            defaultValue = "")
    private String unrecoverableExceptions = "";
    @ConfigProperty(description = "Exception classes (fully qualified, comma-separated; subclasses match) whose "
            + "failure is retried without counting an attempt (an outage); looked for along the cause chain",
            defaultValue = "")
    private String transientExceptions = "";
    @ConfigProperty(description = "Failed deliveries in a row, not all of one message, that open the circuit breaker "
            + "(the readers pause), 0 to 1000 (at most 4 on a SQL Server queue); 0 for no breaker", defaultValue = "0")
    private String breakerThreshold = "0";
    @ConfigProperty(description = "Milliseconds within which the breakerThreshold failures must fall, 1000 to "
            + "86400000", defaultValue = "60000")
    private String breakerWindow = "60000";
    @ConfigProperty(description = "Milliseconds the breaker stays open before one reader probes with one delivery, "
            + "100 to 3600000; doubled after each failed probe", defaultValue = "5000")
    private String breakerDelay = "5000";
    @ConfigProperty(description = "Longest wait before a probe in milliseconds, from breakerDelay to 3600000",
            defaultValue = "300000")
    private String breakerMaxDelay = "300000";

    /**
     * Returns what each failure means.
     *
     * @param loaders where the exception classes may be (nulls skipped); none: their spelling only is checked
     * @throws InvalidPropertyException naming the property and the bad name
     */
    public FailurePolicy failurePolicy(ClassLoader... loaders) throws InvalidPropertyException {
        return FailurePolicy.of(getClass(), unrecoverableExceptions, transientExceptions, loaders);
    }

    /**
     * Returns the circuit breaker's settings.
     *
     * @param sqlServer whether the activation reads a SQL Server queue (the threshold is then at most 4)
     * @throws InvalidPropertyException naming the first bad property, what it accepts and the text given
     */
    public BreakerSettings breaker(boolean sqlServer) throws InvalidPropertyException {
        return BreakerSettings.parse(getClass(), breakerThreshold, breakerWindow, breakerDelay, breakerMaxDelay,
                sqlServer);
    }

    /** Returns the text given for unrecoverableExceptions. */
    public String getUnrecoverableExceptions() {
        return unrecoverableExceptions;
    }

    /** Sets {@code unrecoverableExceptions}: exception classes set aside at once, comma-separated, as text. */
    public void setUnrecoverableExceptions(String unrecoverableExceptions) {
        this.unrecoverableExceptions = unrecoverableExceptions;
    }

    /** Returns the text given for transientExceptions. */
    public String getTransientExceptions() {
        return transientExceptions;
    }

    /** Sets {@code transientExceptions}: exception classes retried without counting an attempt, as text. */
    public void setTransientExceptions(String transientExceptions) {
        this.transientExceptions = transientExceptions;
    }

    /** Returns the text given for breakerThreshold. */
    public String getBreakerThreshold() {
        return breakerThreshold;
    }

    /** Sets {@code breakerThreshold}: failures in a row that open the breaker, 0 for none, as text. */
    public void setBreakerThreshold(String breakerThreshold) {
        this.breakerThreshold = breakerThreshold;
    }

    /** Returns the text given for breakerWindow. */
    public String getBreakerWindow() {
        return breakerWindow;
    }

    /** Sets {@code breakerWindow}: milliseconds the failures must fall within, as text. */
    public void setBreakerWindow(String breakerWindow) {
        this.breakerWindow = breakerWindow;
    }

    /** Returns the text given for breakerDelay. */
    public String getBreakerDelay() {
        return breakerDelay;
    }

    /** Sets {@code breakerDelay}: milliseconds before the first probe, as text. */
    public void setBreakerDelay(String breakerDelay) {
        this.breakerDelay = breakerDelay;
    }

    /** Returns the text given for breakerMaxDelay. */
    public String getBreakerMaxDelay() {
        return breakerMaxDelay;
    }

    /** Sets {@code breakerMaxDelay}: the longest wait before a probe in milliseconds, as text. */
    public void setBreakerMaxDelay(String breakerMaxDelay) {
        this.breakerMaxDelay = breakerMaxDelay;
    }
}

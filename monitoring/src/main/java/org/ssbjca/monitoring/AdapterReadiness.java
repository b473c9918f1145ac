package org.ssbjca.monitoring;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.management.ObjectName;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The adapter's readiness check, {@code ssb-jca} in {@code /health/ready}: DOWN while the adapter is not running, as
 * soon as a queue an activation reads is disabled, and once an activation's readers (a queue's or a table's) have
 * been failing (the database unreachable, the queue or table missing) for {@code ssb.jca.readiness.failing-seconds}
 * (MicroProfile Config, default {@value #DEFAULT_FAILING_SECONDS}), and while every reader of an activation waits for a
 * thread of the container's work manager (it reads nothing); UP otherwise, with one data entry per activation saying
 * how it reads. There is deliberately no liveness check: a database that is down is no reason to restart the server.
 */
@Readiness
@ApplicationScoped
public class AdapterReadiness implements HealthCheck {

    /** The property that sets the threshold. */
    static final String FAILING_SECONDS = "ssb.jca.readiness.failing-seconds";

    /** The default threshold, in seconds. */
    static final String DEFAULT_FAILING_SECONDS = "30";

    /** Why a queue is disabled and what to run (docs/operations/broker-doctor.md). */
    static final String DISABLED_REASON = " (on SQL Server poison detection disables a queue after five rolled back"
            + " receives); its readers are parked: see lastFailedDelivery, then enableQueue on its MXBean"
            + " (docs/operations/broker-doctor.md)";

    private final AdapterMBeans mbeans = new AdapterMBeans();

    @Inject
    @ConfigProperty(name = FAILING_SECONDS, defaultValue = DEFAULT_FAILING_SECONDS)
    long failingSeconds;

    /** Created at deployment, so that a bad threshold fails the deployment and names the property. */
    void started(@Observes @Initialized(ApplicationScoped.class) Object application) {
        validate();
    }

    @PostConstruct
    void validate() {
        if (failingSeconds < 0 || failingSeconds > 86_400) {
            throw new IllegalArgumentException(FAILING_SECONDS + " must be between 0 and 86400 (seconds), was "
                    + failingSeconds);
        }
    }

    @Override
    public HealthCheckResponse call() {
        return check(mbeans, Duration.ofSeconds(failingSeconds), Instant.now());
    }

    /**
     * @param mbeans where the adapter's MBeans are
     * @param threshold how long readers may fail before the check is DOWN
     * @param now the time of the check
     * @return the check's response
     */
    static HealthCheckResponse check(AdapterMBeans mbeans, Duration threshold, Instant now) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("ssb-jca");
        if (!mbeans.adapterRunning()) {
            return response.down().withData("adapter", "not running").build();
        }
        boolean up = true;
        for (ObjectName activation : mbeans.activations()) {
            String name = AdapterMBeans.activationName(activation);
            String queue = mbeans.text(activation, "Queue");
            if (Boolean.TRUE.equals(mbeans.get(activation, "QueueDisabled"))) {
                up = false;
                response.withData(name, "DOWN: queue " + queue + " is disabled" + DISABLED_REASON);
            } else {
                up &= readers(mbeans, activation, "MaxReaders", name, "reading " + queue, threshold, now, response);
            }
        }
        for (ObjectName table : mbeans.tableActivations()) {
            up &= readers(mbeans, table, "ReaderCount", AdapterMBeans.activationName(table), "reading table "
                    + mbeans.text(table, "Table"), threshold, now, response);
        }
        return response.status(up).build();
    }

    /**
     * Says how one activation's readers read: failing (since its MBean's {@code FailingSince}, with its
     * {@code LastError}), all waiting for a thread of the container's work manager ({@code WaitingReaders}, equal to
     * its readers: it reads nothing), or reading (and how many of its readers wait for a thread, if some do).
     *
     * @param readers the attribute that counts its readers, waiting ones included
     * @return false when they have been failing for the threshold or longer, or all wait for a thread
     */
    private static boolean readers(AdapterMBeans mbeans, ObjectName activation, String readers, String name,
            String reading, Duration threshold, Instant now, HealthCheckResponseBuilder response) {
        if (mbeans.get(activation, "FailingSince") instanceof Date since) {
            long seconds = Duration.between(since.toInstant(), now).getSeconds();
            boolean tooLong = seconds >= threshold.getSeconds();
            String error = mbeans.text(activation, "LastError");
            response.withData(name, (tooLong ? "DOWN" : "UP") + ": readers failing for " + seconds + " s"
                    + (error == null ? "" : " (" + error + ")"));
            return !tooLong;
        }
        double had = mbeans.number(activation, readers);
        if (had == 0) { // not NaN: read, and none left: the work manager refused every one
            response.withData(name, "DOWN: not " + reading + ": it has no reader, the server's work manager refused"
                    + " them (SSBJCA0015)");
            return false;
        }
        int waiting = count(mbeans, activation, "WaitingReaders");
        int all = count(mbeans, activation, readers);
        if (waiting > 0 && waiting >= all) {
            response.withData(name, "DOWN: not " + reading + ": its " + waiting + " reader(s) all wait for a thread of"
                    + " the server's work manager (WaitingReaders, SSBJCA0014)");
            return false;
        }
        response.withData(name, "UP: " + reading + (waiting > 0 ? "; " + waiting + " of its " + all
                + " reader(s) wait for a thread of the server's work manager (WaitingReaders, SSBJCA0014)" : ""));
        return true;
    }

    /** @return an int attribute, 0 when it cannot be read */
    private static int count(AdapterMBeans mbeans, ObjectName activation, String attribute) {
        double n = mbeans.number(activation, attribute);
        return Double.isNaN(n) ? 0 : (int) n;
    }
}

package org.ssbjca.api;

/**
 * The message listener interface of message-driven beans fed from an application's own table instead of a Service
 * Broker queue (a table activation: a work queue on a plain table, for work that already sits in a table or a
 * database without Service Broker).
 *
 * <pre>{@code
 * @MessageDriven(activationConfig = {
 *     @ActivationConfigProperty(propertyName = "table", propertyValue = "Job_Queue"),
 *     @ActivationConfigProperty(propertyName = "keyColumn", propertyValue = "ID"),
 *     @ActivationConfigProperty(propertyName = "payloadColumn", propertyValue = "Payload")
 * })
 * @ResourceAdapter("ssb-jca.rar")
 * public class JobListener implements TableRowListener {
 *     public void onRow(TableRow row) { ... }
 * }
 * }</pre>
 *
 * <p>Each row is taken by exactly one reader; readers never wait for each other's rows (rows another transaction holds
 * are skipped). In the {@code transactional} mode (the default) the row's removal (or its done mark) commits with
 * the bean's work in the container's transaction: exactly once; throwing a runtime exception puts it back. In the
 * {@code leased} mode the row is marked with a lease before the bean runs and removed when the bean's transaction
 * commits; a bean that fails or a reader that dies leaves it to be taken again once the lease ends: at least once,
 * with {@link TableRow#attempt()} telling which attempt a delivery is.
 */
public interface TableRowListener {

    /**
     * Handles one row.
     *
     * @param row the row; never null
     */
    void onRow(TableRow row);
}

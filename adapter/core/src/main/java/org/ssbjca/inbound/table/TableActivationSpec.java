package org.ssbjca.inbound.table;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.brokers.Config;
import org.ssbjca.inbound.FailureProperties;

/**
 * How a message-driven bean is fed from an application's own table (a {@link TableRowListener}): the table, its
 * columns, the mode and the limits. Set the properties with {@code @ActivationConfigProperty}; {@link #validate()}
 * refuses a bad value with a message naming the property and what it accepts, which fails the deployment; a table or
 * column the database does not have fails the activation, naming its property.
 */
@Activation(messageListeners = {TableRowListener.class})
public class TableActivationSpec extends FailureProperties implements ActivationSpec {

    private ResourceAdapter resourceAdapter;

    @ConfigProperty(description = "The work queue's table, name or schema.name (required)")
    private String table;
    @ConfigProperty(description = "The column that identifies a row (required)")
    private String keyColumn;
    @ConfigProperty(description = "The column handed to the bean: text or binary (required)")
    private String payloadColumn;
    @ConfigProperty(description = "Rows with the lowest value are taken first; empty for none", defaultValue = "")
    private String priorityColumn = "";
    @ConfigProperty(description = "A timestamp: a row is not taken before it; rows are taken in its order after the"
            + " priority; empty for none", defaultValue = "")
    private String availableColumn = "";
    @ConfigProperty(description = "Rows are taken in this column's order after priority and availability; empty for"
            + " the key", defaultValue = "")
    private String orderColumn = "";
    @ConfigProperty(description = "A timestamp set when the row is done (rows kept); empty to delete done rows",
            defaultValue = "")
    private String doneColumn = "";
    @ConfigProperty(description = "leased mode: the timestamp at which a reader's lease ends (required there)",
            defaultValue = "")
    private String leaseColumn = "";
    @ConfigProperty(description = "leased mode: a uuid (or text) column the adapter marks each taking with; empty to"
            + " mark it with the lease's end", defaultValue = "")
    private String markColumn = "";
    @ConfigProperty(description = "An integer column counting the takings of a row; with maxAttempts, rows taken that"
            + " often are set aside; empty for none", defaultValue = "")
    private String attemptsColumn = "";
    @ConfigProperty(description = "A text column the adapter writes each failed delivery's error to (exception class:"
            + " message, cut to the column's length), in the transaction that counts the attempt; empty for none",
            defaultValue = "")
    private String errorColumn = "";
    @ConfigProperty(description = "With errorColumn: a timestamp column the adapter sets to the database's time"
            + " whenever it writes an error there; the set-aside groups show their first and last; empty for none",
            defaultValue = "")
    private String errorTimeColumn = "";
    @ConfigProperty(description = "transactional (the row's removal commits with the bean's work: exactly once) or"
            + " leased (the row is leased before the bean runs: at least once)", defaultValue = "transactional")
    private String mode = "transactional";
    @ConfigProperty(description = "leased mode: seconds a reader holds a row, 1 to 86400", defaultValue = "300")
    private String leaseSeconds = "300";
    @ConfigProperty(description = "Takings after which a row is set aside (with attemptsColumn), 0 for no limit, to"
            + " 1000", defaultValue = "5")
    private String maxAttempts = "5";
    @ConfigProperty(description = "Seconds after a failed delivery before its rows are taken again (the rows behind"
            + " them are taken meanwhile), 0 to 3600", defaultValue = "1")
    private String retryDelaySeconds = "1";
    @ConfigProperty(description = "Rows per transaction, 1 to 1000", defaultValue = "1")
    private String batchSize = "1";
    @ConfigProperty(description = "Readers (concurrent deliveries), 1 to 256", defaultValue = "1")
    private String maxReaders = "1";
    @ConfigProperty(description = "Milliseconds a reader waits before looking again when no row is available, 10 to"
            + " 600000", defaultValue = "1000")
    private String pollMillis = "1000";
    @ConfigProperty(description = "Transaction timeout of a delivery in seconds, 0 for the container's default",
            defaultValue = "0")
    private String transactionTimeout = "0";
    @ConfigProperty(description = "First wait of a reader after a failed turn in milliseconds, 10 to 600000",
            defaultValue = "500")
    private String reconnectInitialMillis = "500";
    @ConfigProperty(description = "Longest wait of a reader after failed turns in milliseconds,"
            + " reconnectInitialMillis to 3600000", defaultValue = "30000")
    private String reconnectMaxMillis = "30000";
    @ConfigProperty(description = "Random reduction of each wait after a failed turn, 0.0 to 1.0", defaultValue = "0.5")
    private String reconnectJitter = "0.5";
    @ConfigProperty(description = "JDBC URL of the database; default: the resource adapter's connectionUrl")
    private String connectionUrl;
    @ConfigProperty(description = "Database user; default: the resource adapter's user")
    private String user;
    @ConfigProperty(description = "Database password; default: the resource adapter's password", confidential = true)
    private String password;

    @Override
    public void validate() throws InvalidPropertyException {
        new TableSettings(this);
    }

    /**
     * Returns the database: this spec's connection properties, else the resource adapter's.
     *
     * @throws IllegalArgumentException if the URL is not supported
     */
    public DatabaseConfig database() {
        return Config.database(connectionUrl, user, password, resourceAdapter instanceof AdapterContext
                ? (AdapterContext) resourceAdapter : null);
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        this.resourceAdapter = ra;
    }

    /** Returns the table. */
    public String getTable() {
        return table;
    }

    /** Sets {@code table}: the work queue's table, name or schema.name. */
    public void setTable(String table) {
        this.table = table;
    }

    /** Returns the key column. */
    public String getKeyColumn() {
        return keyColumn;
    }

    /** Sets {@code keyColumn}: the column that identifies a row. */
    public void setKeyColumn(String keyColumn) {
        this.keyColumn = keyColumn;
    }

    /** Returns the payload column. */
    public String getPayloadColumn() {
        return payloadColumn;
    }

    /** Sets {@code payloadColumn}: the column handed to the bean. */
    public void setPayloadColumn(String payloadColumn) {
        this.payloadColumn = payloadColumn;
    }

    /** Returns the priority column, or empty. */
    public String getPriorityColumn() {
        return priorityColumn;
    }

    /** Sets {@code priorityColumn}: rows with the lowest value first; empty for none. */
    public void setPriorityColumn(String priorityColumn) {
        this.priorityColumn = priorityColumn;
    }

    /** Returns the availability column, or empty. */
    public String getAvailableColumn() {
        return availableColumn;
    }

    /** Sets {@code availableColumn}: a timestamp before which a row is not taken; empty for none. */
    public void setAvailableColumn(String availableColumn) {
        this.availableColumn = availableColumn;
    }

    /** Returns the order column, or empty. */
    public String getOrderColumn() {
        return orderColumn;
    }

    /** Sets {@code orderColumn}: rows in its order after priority and availability; empty for the key. */
    public void setOrderColumn(String orderColumn) {
        this.orderColumn = orderColumn;
    }

    /** Returns the done column, or empty. */
    public String getDoneColumn() {
        return doneColumn;
    }

    /** Sets {@code doneColumn}: a timestamp set when a row is done (rows kept); empty to delete done rows. */
    public void setDoneColumn(String doneColumn) {
        this.doneColumn = doneColumn;
    }

    /** Returns the lease column, or empty. */
    public String getLeaseColumn() {
        return leaseColumn;
    }

    /** Sets {@code leaseColumn}: leased mode: when a reader's lease ends. */
    public void setLeaseColumn(String leaseColumn) {
        this.leaseColumn = leaseColumn;
    }

    /** Returns the mark column, or empty. */
    public String getMarkColumn() {
        return markColumn;
    }

    /** Sets {@code markColumn}: leased mode: the column each taking is marked with; empty for the lease's end. */
    public void setMarkColumn(String markColumn) {
        this.markColumn = markColumn;
    }

    /** Returns the attempts column, or empty. */
    public String getAttemptsColumn() {
        return attemptsColumn;
    }

    /** Sets {@code attemptsColumn}: an integer column counting the takings; empty for none. */
    public void setAttemptsColumn(String attemptsColumn) {
        this.attemptsColumn = attemptsColumn;
    }

    /** Returns the error column, or empty. */
    public String getErrorColumn() {
        return errorColumn;
    }

    /** Sets {@code errorColumn}: a text column each failed delivery's error is written to; empty for none. */
    public void setErrorColumn(String errorColumn) {
        this.errorColumn = errorColumn;
    }

    /** Returns the error time column, or empty. */
    public String getErrorTimeColumn() {
        return errorTimeColumn;
    }

    /**
     * Sets {@code errorTimeColumn}: a timestamp column set to the database's time with each error written; empty for
     * none.
     */
    public void setErrorTimeColumn(String errorTimeColumn) {
        this.errorTimeColumn = errorTimeColumn;
    }

    /** Returns transactional or leased. */
    public String getMode() {
        return mode;
    }

    /** Sets {@code mode}: transactional or leased. */
    public void setMode(String mode) {
        this.mode = mode;
    }

    /** Returns the text given for the lease's length in seconds, 1 to 86400. */
    public String getLeaseSeconds() {
        return leaseSeconds;
    }

    /** Sets {@code leaseSeconds}: seconds a reader holds a leased row. */
    public void setLeaseSeconds(String leaseSeconds) {
        this.leaseSeconds = leaseSeconds;
    }

    /** Returns the text given for the takings after which a row is set aside, 0 to 1000. */
    public String getMaxAttempts() {
        return maxAttempts;
    }

    /** Sets {@code maxAttempts}: takings after which a row is set aside; 0 for no limit. */
    public void setMaxAttempts(String maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** Returns the text given for the retry delay in seconds, 0 to 3600. */
    public String getRetryDelaySeconds() {
        return retryDelaySeconds;
    }

    /** Sets {@code retryDelaySeconds}: seconds after a failed delivery before its rows are taken again. */
    public void setRetryDelaySeconds(String retryDelaySeconds) {
        this.retryDelaySeconds = retryDelaySeconds;
    }

    /** Returns the text given for rows per transaction, 1 to 1000. */
    public String getBatchSize() {
        return batchSize;
    }

    /** Sets {@code batchSize}: rows per transaction. */
    public void setBatchSize(String batchSize) {
        this.batchSize = batchSize;
    }

    /** Returns the text given for the number of readers, 1 to 256. */
    public String getMaxReaders() {
        return maxReaders;
    }

    /** Sets {@code maxReaders}: readers (concurrent deliveries). */
    public void setMaxReaders(String maxReaders) {
        this.maxReaders = maxReaders;
    }

    /** Returns the text given for the poll interval in milliseconds, 10 to 600000. */
    public String getPollMillis() {
        return pollMillis;
    }

    /** Sets {@code pollMillis}: milliseconds a reader waits when no row is available. */
    public void setPollMillis(String pollMillis) {
        this.pollMillis = pollMillis;
    }

    /** Returns the text given for the delivery transaction timeout in seconds, 0 to 86400. */
    public String getTransactionTimeout() {
        return transactionTimeout;
    }

    /** Sets {@code transactionTimeout}: the delivery transaction timeout in seconds, 0 for the container's default. */
    public void setTransactionTimeout(String transactionTimeout) {
        this.transactionTimeout = transactionTimeout;
    }

    /** Returns the JDBC URL, or null for the adapter's. */
    public String getConnectionUrl() {
        return connectionUrl;
    }

    /** Sets {@code connectionUrl}: the JDBC URL of the table's database. */
    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    /** Returns the database user, or null for the adapter's. */
    public String getUser() {
        return user;
    }

    /** Sets {@code user}: the database user. */
    public void setUser(String user) {
        this.user = user;
    }

    /** Returns the database password, or null for the adapter's. */
    public String getPassword() {
        return password;
    }

    /** Sets {@code password}: the database password. */
    public void setPassword(String password) {
        this.password = password;
    }

    @Override
    public String toString() {
        return "TableActivationSpec[table=" + table + ", mode=" + mode + "]";
    }

    /** Returns the text given for the first wait after a failed turn, in milliseconds. */
    public String getReconnectInitialMillis() {
        return reconnectInitialMillis;
    }

    /** Sets {@code reconnectInitialMillis}: the first wait after a failed turn in milliseconds, 10 to 600000. */
    public void setReconnectInitialMillis(String reconnectInitialMillis) {
        this.reconnectInitialMillis = reconnectInitialMillis;
    }

    /** Returns the text given for the longest wait after failed turns, in milliseconds. */
    public String getReconnectMaxMillis() {
        return reconnectMaxMillis;
    }

    /** Sets {@code reconnectMaxMillis}: the longest wait after failed turns in milliseconds, at least the first. */
    public void setReconnectMaxMillis(String reconnectMaxMillis) {
        this.reconnectMaxMillis = reconnectMaxMillis;
    }

    /** Returns the text given for the random reduction of each wait, 0.0 to 1.0. */
    public String getReconnectJitter() {
        return reconnectJitter;
    }

    /** Sets {@code reconnectJitter}: the random reduction of each wait after a failed turn, 0.0 to 1.0. */
    public void setReconnectJitter(String reconnectJitter) {
        this.reconnectJitter = reconnectJitter;
    }
}

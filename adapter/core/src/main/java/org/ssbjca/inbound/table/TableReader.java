package org.ssbjca.inbound.table;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import org.ssbjca.inbound.ReaderConnection;
import org.ssbjca.inbound.ReaderLoop;
import org.ssbjca.support.AdapterLog;

/**
 * One reader of a table activation, on the shared {@link ReaderLoop}: each turn one delivery transaction of up to
 * {@code batchSize} rows ({@link TableTurn}) in the activation's {@link TableDelivery} and {@link TableTransaction}.
 * It holds its own connection (an XA branch for a transacted bean; a local transaction otherwise) and endpoint; a
 * failed turn closes both and retries with the activation's reconnect backoff. When no row is available it waits
 * {@code pollMillis}.
 */
final class TableReader extends ReaderLoop {

    private static final AdapterLog LOG = AdapterLog.of(TableReader.class);

    private final TableActivation activation;
    private final TableSettings settings;

    TableReader(TableActivation activation, int id) {
        super("reader " + id + " of " + activation.name(), activation.settings().newBackoff());
        this.activation = activation;
        this.settings = activation.settings();
    }

    @Override
    protected void connect() throws Exception {
        ReaderConnection connection = ReaderConnection.open(activation.database(), settings.transactionTimeoutSeconds,
                activation::setTransactionRollbackOnly);
        connected(connection);
        if (connection.timeoutIgnored() && activation.reports().firstIgnoredTimeout()) {
            LOG.transactionTimeoutIgnored(activation.name(), settings.transactionTimeoutSeconds,
                    activation.database().source().config());
        }
    }

    @Override
    protected MessageEndpoint createEndpoint(ReaderConnection c) throws Exception {
        return activation.factory().createEndpoint(activation.transacted() ? c.xaResource() : null);
    }

    /** Parks while the activation's circuit breaker is open, unless this reader is to probe; false once stopped. */
    @Override
    protected boolean mayRead() throws Exception {
        return activation.breaker().awaitTurn(this::isStopped);
    }

    @Override
    protected long turn() throws Exception {
        // the queue is resolved outside any delivery: a missing table is a reader failure
        TableTurn turn = new TableTurn(activation, name(), connection(), endpoint(), activation.queue());
        try {
            return turn.run() ? 0 : settings.pollMillis;
        } finally {
            activation.breaker().turnEnded(); // a probe that delivered nothing: another may probe
        }
    }

    @Override
    protected void succeeded(boolean turned) {
        activation.readerSucceeded(name());
    }

    @Override
    protected void failed(Throwable e, int failures, long delay) {
        activation.breaker().turnEnded(); // a probe that failed before its delivery: another may probe
        if (e instanceof UnavailableException) {
            return;
        }
        String what = ReaderLoop.describe(e);
        if (activation.readerFailed(name(), what)) {
            // once per activation and cause, with the stack trace; the retries at debug
            LOG.tableReaderFailed(e, name(), what, failures, delay);
        } else {
            LOG.tableReaderStillFailing(e, name(), what, failures, delay);
        }
    }

    @Override
    protected void ended() {
        activation.failing.stopped(name());
    }

    // A stop interrupts nothing but the loop: a reader in a delivery sees it when the delivery ends, a pausing one
    // within 100 ms. Its session is not cancelled: the reader never waits on it, only the bean's verbs through the
    // connection factory run on it, and a cancelled session would end the bean's RECEIVE empty at once.
}

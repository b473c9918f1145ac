package org.ssbjca.inbound.table;

import java.util.ArrayList;
import java.util.List;
import org.ssbjca.api.TableRow;
import org.ssbjca.inbound.FailurePolicy;
import org.ssbjca.support.AdapterLog;

/**
 * Says a failed table delivery and holds its charged rows for the retry delay ({@link HeldRows}). On the reader's
 * thread, after the delivery's transaction ended.
 */
final class TableFailures {

    /** The table reader's category, which its logs have always had. */
    private static final AdapterLog LOG = AdapterLog.of(TableReader.class);

    private final TableActivation activation;
    private final TableSettings settings;
    private final String reader;

    TableFailures(TableActivation activation, String reader) {
        this.activation = activation;
        this.settings = activation.settings();
        this.reader = reader;
    }

    /**
     * Holds the charged rows for the retry delay and says the failure: each charged row at its last attempt is set
     * aside ({@code SSBJCA0118}, one line per row); of the others, those failing for the first time are logged at
     * WARN with the cause ({@code SSBJCA0113}, one line for them), those that failed before at DEBUG with their count
     * ({@code SSBJCA0130}). The activation's {@code LastError} names the rows and the cause. The failure policy's
     * verdict decides first: an unrecoverable failure sets every charged row aside ({@code SSBJCA0243}; when the
     * table has an attempts column and a limit), a transient one none ({@code SSBJCA0244}).
     *
     * @param verdict what the failure policy made of the failure
     * @return the charged rows set aside
     */
    List<TableRow> report(Throwable cause, List<TableRow> charged, FailurePolicy.Verdict verdict) {
        int maxAttempts = settings.definition.maxAttempts();
        HeldRows held = activation.held();
        List<TableRow> first = new ArrayList<>(charged.size());
        List<TableRow> again = new ArrayList<>(charged.size());
        List<TableRow> setAside = new ArrayList<>(0);
        int failures = 0;
        for (TableRow row : charged) {
            int n = held.failed(row, settings.retryDelaySeconds);
            failures = Math.max(failures, n);
            if (maxAttempts > 0 && verdict == FailurePolicy.Verdict.UNRECOVERABLE) {
                LOG.unrecoverableFailure(reader, cause.toString(), row);
                setAside.add(row);
            } else if (verdict == FailurePolicy.Verdict.TRANSIENT) {
                LOG.transientFailure(reader, cause.toString(), row);
            } else if (maxAttempts > 0 && row.attempt() >= maxAttempts) {
                LOG.rowSetAside(cause, reader, row, cause.toString(), row.attempt(), maxAttempts);
                setAside.add(row);
            } else if (n == 1) {
                first.add(row);
            } else {
                again.add(row);
            }
        }
        if (!first.isEmpty()) {
            LOG.rowDeliveryFailed(cause, reader, rows(first), cause.toString(), settings.retryDelaySeconds);
        }
        HeldRows.Failed oldest = held.get(charged.get(0));
        String since = oldest == null ? "now" : oldest.firstFailure.toString();
        if (!again.isEmpty()) {
            LOG.rowFailedAgain(reader, rows(again), cause.toString(), failures, since, settings.retryDelaySeconds);
        }
        activation.rowFailed(rows(charged) + " failed" + (failures > 1 ? " " + failures + " times since " + since
                : "") + ": " + cause + (setAside.isEmpty() ? "; taken again in " + settings.retryDelaySeconds + " s"
                : verdict == FailurePolicy.Verdict.UNRECOVERABLE ? "; set aside at its attempt "
                        + charged.get(0).attempt() + " of " + maxAttempts + " (failure policy)"
                : "; set aside after " + maxAttempts + " attempts"));
        return setAside;
    }

    /** @return one row, or how many with the first and last */
    private static Object rows(List<TableRow> rows) {
        return rows.size() == 1 ? rows.get(0)
                : rows.size() + " rows (" + rows.get(0) + " ... " + rows.get(rows.size() - 1) + ")";
    }
}

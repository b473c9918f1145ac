package org.ssbjca.sample.workqueue;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.List;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.sample.Jdbc;

/** Reads the work log ({@code sample_work_log}): what was processed, how often, by which readers. */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class WorkLog {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    /**
     * What a run's work log says.
     *
     * @param rows rows in the log (processings that committed)
     * @param distinctItems distinct item numbers among them
     * @param lowest the lowest item number
     * @param highest the highest item number
     * @param readers distinct readers that processed items
     */
    public record Summary(long rows, long distinctItems, long lowest, long highest, long readers) {
    }

    /**
     * @param runId a run
     * @return its summary
     */
    public Summary summary(String runId) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return Jdbc.first(broker.jdbcConnection(), "SELECT COUNT(*), COUNT(DISTINCT item_id), MIN(item_id),"
                    + " MAX(item_id), COUNT(DISTINCT reader) FROM sample_work_log WHERE run_id = ?",
                    rs -> new Summary(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)),
                    runId);
        }
    }

    /**
     * @param runId a run
     * @return how many items each reader processed, one line per reader
     */
    public List<String> perReader(String runId) {
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            return Jdbc.list(broker.jdbcConnection(), "SELECT reader, COUNT(*) FROM sample_work_log WHERE run_id = ?"
                    + " GROUP BY reader ORDER BY reader", rs -> rs.getString(1) + ": " + rs.getLong(2), runId);
        }
    }
}

package org.ssbjca.it.beans;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/**
 * Test MDB fed from {@value #TABLE} that fails on every row: with {@code maxAttempts} 1 each row is set aside after its
 * first failed delivery, its error in the {@code error} column and its time in {@code failed_at}, for the console's
 * set-aside operations.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "table", propertyValue = ConsoleTableService.TABLE),
    @ActivationConfigProperty(propertyName = "keyColumn", propertyValue = "id"),
    @ActivationConfigProperty(propertyName = "payloadColumn", propertyValue = "body"),
    @ActivationConfigProperty(propertyName = "attemptsColumn", propertyValue = "attempts"),
    @ActivationConfigProperty(propertyName = "errorColumn", propertyValue = "error"),
    @ActivationConfigProperty(propertyName = "errorTimeColumn", propertyValue = "failed_at"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "retryDelaySeconds", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollMillis", propertyValue = "200")
})
@ResourceAdapter("ssb-jca.rar")
public class ConsoleTableService implements TableRowListener {

    /**
     * The table: {@code id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, attempts INT NOT NULL DEFAULT 0, error TEXT,
     * failed_at TIMESTAMP}.
     */
    public static final String TABLE = "it_console_work";

    @Override
    public void onRow(TableRow row) {
        throw new IllegalStateException("cannot handle " + row.payloadText());
    }
}

package org.ssbjca.it.beans;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/** Test MDB fed from the table {@value #TABLE} (a table activation, transactional mode, rows deleted). */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "table", propertyValue = TableWorkService.TABLE),
    @ActivationConfigProperty(propertyName = "keyColumn", propertyValue = "id"),
    @ActivationConfigProperty(propertyName = "payloadColumn", propertyValue = "body"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "pollMillis", propertyValue = "200")
})
@ResourceAdapter("ssb-jca.rar")
public class TableWorkService implements TableRowListener {

    /** The table: {@code id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL}. */
    public static final String TABLE = "it_table_work";

    @Override
    public void onRow(TableRow row) {
        if (row.payloadText().isEmpty()) {
            throw new IllegalStateException("an empty work item");
        }
    }
}

/** A user's three metadata fields, each a JSON object edited on its own. */
import type { ServerUser } from '@latchkey/js/admin';
import type { Json } from '@latchkey/protocol';
import { JsonEditor } from '../../ui/json-editor.js';
import { Section } from '../../ui/page.js';

export function UserMetadataSection({ user }: { user: ServerUser }) {
  return (
    <Section title="Metadata" id="metadata" description="JSON objects; an empty field saves no metadata.">
      <div className="ld-user-metadata">
        {/* The editor parsed the text as JSON: what it hands over is JSON. */}
        <JsonEditor
          label="Client metadata"
          hint="The user's app reads and writes it."
          value={user.clientMetadata}
          onSave={(value) => user.update({ clientMetadata: value as Json })}
        />
        <JsonEditor
          label="Client read-only metadata"
          hint="The user's app reads it; only server code writes it."
          value={user.clientReadOnlyMetadata}
          onSave={(value) => user.update({ clientReadOnlyMetadata: value as Json })}
        />
        <JsonEditor
          label="Server metadata"
          hint="Only server code reads and writes it."
          value={user.serverMetadata}
          onSave={(value) => user.update({ serverMetadata: value as Json })}
        />
      </div>
    </Section>
  );
}

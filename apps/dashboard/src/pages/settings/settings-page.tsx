/**
 * Project settings: the name and description, production mode (taken as
 * asked, with the checks that fail listed beside it), the project id
 * to copy, and deleting the project once its name is typed.
 */
import { adminProjectQuery, ownedProjectsQuery } from '@latchkey/js/admin';
import { BusyButton, Form, FormAlert, useFormAction, useQuery } from '@latchkey/react';
import { useId, useState } from 'react';
import { useOwner, useProject } from '../../project.js';
import { navigate } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { ConfirmButton } from '../../ui/confirm.js';
import { CopyField } from '../../ui/copy-button.js';
import { SavedNotice, TextField } from '../../ui/fields.js';
import { PageHeader, Section } from '../../ui/page.js';
import { refusalOf } from '../../ui/refusals.js';
import { ProductionProblems } from './production-problems.js';
import { SettingSwitch } from './setting-switch.js';

export default function SettingsPage(_props: PageProps) {
  const project = useQuery(adminProjectQuery, { suspend: true });
  return (
    <>
      <PageHeader title="Project settings" description="The project’s name, its mode, its id, and deleting it." />
      <Section title="Project" description="Shown to owners in the dashboard.">
        <NameForm key={project.id} name={project.displayName} description={project.description ?? ''} />
      </Section>
      <ProductionMode />
      <Section title="Project id" description="Give it to the SDK (projectId) and to the API (x-stack-project-id).">
        <CopyField label="Project id" value={project.id} />
      </Section>
      <DeleteProject name={project.displayName} />
    </>
  );
}

function NameForm({ name: savedName, description: savedDescription }: { name: string; description: string }) {
  const { adminApp } = useProject();
  const owner = useOwner();
  const [name, setName] = useState(savedName);
  const [description, setDescription] = useState(savedDescription);
  const form = useFormAction(['name', 'description'] as const);
  const changed = name !== savedName || description !== savedDescription;
  return (
    <Form
      state={form}
      className="ld-form"
      onSubmit={() =>
        form.submit({
          check: () => {
            if (!name.trim()) return { name: 'Enter a name for the project.' };
            if (name.trim().length > 256) return { name: 'Use at most 256 characters.' };
            return {};
          },
          work: async () => {
            await adminApp.updateProject({ displayName: name.trim(), description: description.trim() || null });
            await owner.invalidate(ownedProjectsQuery);
            return 'Saved.';
          },
          refusal: (error) => {
            const beside = refusalOf(error, { display_name: 'name', description: 'description' } as const);
            if (beside) return beside;
            return null;
          },
        })
      }
    >
      <TextField field="name" label="Name" value={name} onValueChange={setName} />
      <TextField
        field="description"
        label="Description (optional)"
        value={description}
        onValueChange={setDescription}
      />
      <FormAlert />
      <div className="ld-form-actions">
        <BusyButton block={false} disabled={!changed && !form.busy}>
          Save
        </BusyButton>
        <SavedNotice form={form} hidden={changed} />
      </div>
    </Form>
  );
}

function ProductionMode() {
  const { adminApp } = useProject();
  const project = useQuery(adminProjectQuery, { suspend: true });
  const problems = project.productionModeErrors;
  return (
    <Section
      title="Production mode"
      description="In production mode only HTTPS trusted domains are allowed, localhost is not, and every OAuth provider uses your own keys."
    >
      <SettingSwitch
        label="Production mode"
        hint={
          problems.length > 0
            ? `${problems.length === 1 ? 'One check fails' : `${problems.length} checks fail`}; fix ${problems.length === 1 ? 'it' : 'them'} before real users sign in:`
            : undefined
        }
        checked={project.isProductionMode}
        save={(isProductionMode) => adminApp.updateProject({ isProductionMode })}
      />
      {problems.length > 0 ? <ProductionProblems problems={problems} /> : null}
    </Section>
  );
}

function DeleteProject({ name }: { name: string }) {
  const { adminApp } = useProject();
  const owner = useOwner();
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const matches = typed.trim() === name;
  return (
    <Section
      title="Delete the project"
      description="Its users, teams, keys, settings and logs are deleted. This cannot be undone."
    >
      <div className="lk-field">
        <label className="lk-label" htmlFor={inputId}>
          Type the project’s name, <strong>{name}</strong>, to delete it
        </label>
        <input
          id={inputId}
          className="lk-input"
          value={typed}
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <div>
        <ConfirmButton
          title={`Delete ${name}?`}
          description="The project and everything in it are deleted for good: apps using its keys stop working."
          confirmLabel="Delete project"
          disabled={!matches}
          onConfirm={async () => {
            await adminApp.deleteProject();
            await owner.invalidate(ownedProjectsQuery);
            navigate('/');
          }}
        >
          Delete project
        </ConfirmButton>
      </div>
    </Section>
  );
}

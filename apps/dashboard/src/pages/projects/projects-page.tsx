/** The owner's projects: each with its user count, a link to it, and a form to create one. */
import { ownedProjectsQuery } from '@latchkey/js/admin';
import { BusyButton, Form, FormAlert, useFormAction, useQuery } from '@latchkey/react';
import { useState } from 'react';
import { useOwner } from '../../project.js';
import { Link, navigate } from '../../router.js';
import type { PageProps } from '../../routes.js';
import { FormDialog } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { formatNumber } from '../../ui/format.js';
import { Badge, PageHeader } from '../../ui/page.js';
import { EmptyState } from '../../ui/states.js';

export default function ProjectsPage(_props: PageProps) {
  const owner = useOwner();
  const projects = useQuery(ownedProjectsQuery, { suspend: true, app: owner });
  return (
    <>
      <PageHeader
        title="Projects"
        description="The projects you own. Each has its own users, sign-in methods and keys."
        actions={
          <FormDialog trigger="Create project" title="Create a project">
            {(close) => <CreateProjectForm onCreated={close} />}
          </FormDialog>
        }
      />
      {projects.length === 0 ? (
        <EmptyState title="No projects yet">Create one to add sign-in to an application.</EmptyState>
      ) : (
        <ul className="ld-project-grid">
          {projects.map((project) => (
            <li key={project.id} className="ld-card ld-project-card">
              <h2>
                <Link to={`/projects/${encodeURIComponent(project.id)}`}>{project.displayName}</Link>
              </h2>
              <p className="ld-muted">{project.description || 'No description'}</p>
              <p>
                {formatNumber(project.userCount)} {project.userCount === 1 ? 'user' : 'users'}{' '}
                {project.isProductionMode ? <Badge tone="success">Production</Badge> : <Badge>Development</Badge>}
              </p>
              <p className="ld-muted ld-mono">{project.id}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function CreateProjectForm({ onCreated }: { onCreated: () => void }) {
  const owner = useOwner();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const form = useFormAction(['name', 'description'] as const);
  return (
    <Form
      state={form}
      className="ld-form"
      onSubmit={() =>
        form.submit({
          check: () => (name.trim() ? {} : { name: 'Enter a name for the project.' }),
          work: async () => {
            const project = await owner.createProject({ displayName: name.trim(), description: description.trim() });
            await owner.invalidate(ownedProjectsQuery);
            onCreated();
            navigate(`/projects/${encodeURIComponent(project.id)}`);
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
      <BusyButton>Create project</BusyButton>
    </Form>
  );
}

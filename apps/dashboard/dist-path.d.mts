/** The directory of the dashboard's build: `index.html` and `assets/`. */
export declare const dashboardDir: string;
